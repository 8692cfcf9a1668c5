import path from 'node:path';

/** Process configuration, read once from the environment. */
export const config = {
  /** `APP_ENV=production` turns off local conveniences (demo seeding, dev mailbox) and turns on secure cookies. */
  get isProduction() {
    return process.env.APP_ENV === 'production';
  },
  get dataDir() {
    return path.resolve(/* turbopackIgnore: true */ process.env.DATA_DIR ?? '.data');
  },
  get databaseUrl() {
    return process.env.DATABASE_URL;
  },
  get port() {
    return Number(process.env.PORT ?? 3000);
  },
  get publicUrl() {
    return process.env.PUBLIC_URL ?? `http://localhost:${this.port}`;
  },
  get logLevel() {
    return process.env.LOG_LEVEL ?? 'info';
  },
  get workerConcurrency() {
    return Number(process.env.WORKER_CONCURRENCY ?? 5);
  },
  get runWorkerInProcess() {
    return process.env.RUN_WORKER !== 'false';
  },
  http: {
    /**
     * Developer-API requests one API key may make per window, in each server process (docs/api.md,
     * "Rate limits"); `API_RATE_LIMIT_WINDOW_SECONDS` sets the window.
     */
    get apiRateLimit() {
      const configured = Number(process.env.API_RATE_LIMIT);
      return Number.isSafeInteger(configured) && configured > 0 ? configured : 100;
    },
    get apiRateLimitWindowSeconds() {
      const configured = Number(process.env.API_RATE_LIMIT_WINDOW_SECONDS);
      return Number.isSafeInteger(configured) && configured > 0 ? configured : 1;
    },
    /**
     * The largest request body any endpoint reads, in bytes (docs/api.md, "Limits"): a larger
     * one is refused with 413 before it is read, parsed or authenticated.
     */
    get maxBodyBytes() {
      const configured = Number(process.env.MAX_REQUEST_BODY_BYTES);
      return Number.isSafeInteger(configured) && configured > 0 ? configured : 1024 * 1024;
    },
  },
  payments: {
    /**
     * Sandbox only: how long each processor call takes, as a real network call would. At most a
     * minute, inside the pending-payment reconciliation delay below, which must outlast any
     * processor call (the Idempotency-Key lease is renewed while a call runs).
     */
    get sandboxLatencyMs() {
      return Math.min(60_000, Math.max(0, Number(process.env.SANDBOX_PROCESSOR_LATENCY_MS ?? 0) || 0));
    },
    /**
     * A payment or refund still `pending`/`requested` this long after phase 1 is finished by
     * reconciliation (its request crashed). Longer than any processor call may take.
     */
    get pendingReconcileAfterMs() {
      return Number(process.env.PAYMENT_PENDING_RECONCILE_AFTER_MS ?? 120_000);
    },
  },
  webhooks: {
    /** Delays after each failed attempt (DESIGN 5); e.g. `5s,5m,30m,2h,5h,10h,10h`. Tests compress it. */
    get retrySchedule() {
      return process.env.WEBHOOK_RETRY_SCHEDULE ?? '5s,5m,30m,2h,5h,10h,10h';
    },
    get timeoutMs() {
      return Number(process.env.WEBHOOK_TIMEOUT_MS ?? 10_000);
    },
    /** Development and tests only: lets receivers live on loopback and private networks. */
    get allowPrivateUrls() {
      return process.env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
    },
    /** Attempts in flight at once per endpoint, across every dispatcher process (docs/webhooks.md). */
    get endpointConcurrency() {
      return Math.max(1, Number(process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 100));
    },
    /** The same limit for an endpoint whose latest attempts all failed (docs/webhooks.md, "Limits"). */
    get failingEndpointConcurrency() {
      return Math.max(1, Number(process.env.WEBHOOK_FAILING_ENDPOINT_CONCURRENCY ?? 4));
    },
    /** Attempts one dispatcher process keeps in flight (claimed and not yet recorded) at most. */
    get maxInFlight() {
      return Math.max(1, Number(process.env.WEBHOOK_MAX_IN_FLIGHT ?? 1000));
    },
    /** An endpoint failing every attempt for this long is disabled. */
    get disableAfter() {
      return process.env.WEBHOOK_DISABLE_AFTER ?? '5d';
    },
  },
};
