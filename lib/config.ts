import path from 'node:path';
import type { ConfigVariables } from './config-schema';
import { parseConfig } from './config-parse';

export { ConfigError, parseConfig } from './config-parse';

/**
 * Process configuration: the environment, parsed once per process against lib/config-schema.ts.
 * The only module that reads `process.env` (docs/operations.md, "Configuration").
 */

// One parse per process, shared by every bundle that includes this module (Next.js loads it
// again in its own bundles, inside the launcher's process, like the pool in lib/db/client.ts).
const globalForConfig = globalThis as unknown as { __paybaseConfig?: ConfigVariables & { runtimeDatabaseUrl?: string } };

/**
 * The environment of `next build` (scripts/build-state.ts): ours, plus the release identity
 * Next.js reads itself. `NEXT_DEPLOYMENT_ID` (the release, given or made from the sources) fixes
 * the build id and turns on Next.js's version-skew protection; `NEXT_SERVER_ACTIONS_ENCRYPTION_KEY`,
 * when set, fixes the server actions' ids and key. With both, builds of the same sources on
 * different machines answer each other's pages (docs/operations.md, "One build everywhere").
 */
export function nextBuildEnvironment(defaultRelease: string): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DEPLOYMENT_ID: process.env.NEXT_DEPLOYMENT_ID || defaultRelease };
}

/** Serves the release a build was made as (Next.js reads its deployment id at start as at build). */
export function serveRelease(release: string): void {
  process.env.NEXT_DEPLOYMENT_ID = release;
}

/** The parsed configuration; the first call parses `process.env` and throws a ConfigError when it is invalid. */
export function loadConfig(): ConfigVariables {
  globalForConfig.__paybaseConfig ??= parseConfig(process.env);
  return globalForConfig.__paybaseConfig;
}

/**
 * Without DATABASE_URL, the database the launcher started (or, for `npm run worker`, the one a
 * running launcher recorded in the data directory) is handed to the rest of the process here.
 */
export function setDatabaseUrl(url: string): void {
  loadConfig();
  globalForConfig.__paybaseConfig!.runtimeDatabaseUrl = url;
}

const env = loadConfig;

/** The configuration as the code uses it, read from the parsed variables. */
export const config = {
  /** `APP_ENV=production` turns off local conveniences (demo seeding, dev mailbox) and turns on secure cookies. */
  get isProduction() {
    return env().APP_ENV === 'production';
  },
  /** Running under `next dev` (Next.js sets NODE_ENV; not a Paybase setting): React needs eval there. */
  get isNextDevelopment() {
    return process.env.NODE_ENV === 'development';
  },
  get dataDir() {
    return path.resolve(/* turbopackIgnore: true */ env().DATA_DIR);
  },
  get databaseUrl() {
    return globalForConfig.__paybaseConfig?.runtimeDatabaseUrl ?? env().DATABASE_URL;
  },
  get port() {
    return env().PORT;
  },
  /** The address the launcher listens on. */
  get host() {
    return env().HOST;
  },
  /**
   * How long an idle client connection stays open. Longer than a balancer's own idle timeout
   * (60 s for most), so the balancer, not the node, closes it: a node closing first races a
   * request the balancer is sending on it (a 502).
   */
  get keepAliveTimeoutMs() {
    return env().HTTP_KEEP_ALIVE_TIMEOUT_MS;
  },
  get publicUrl() {
    return env().PUBLIC_URL ?? `http://localhost:${this.port}`;
  },
  get logLevel() {
    return env().LOG_LEVEL;
  },
  get workerConcurrency() {
    return env().WORKER_CONCURRENCY;
  },
  get runWorkerInProcess() {
    return env().RUN_WORKER;
  },
  /** When set, `GET /metrics` requires it as a bearer token. */
  get metricsToken() {
    return env().METRICS_TOKEN;
  },
  /** `npm run worker` serves `GET /metrics` on this port (0: it does not). */
  get workerMetricsPort() {
    return env().WORKER_METRICS_PORT;
  },
  /** Load every page and route module when the server starts (Next.js `preloadEntriesOnStart`). */
  get preloadPages() {
    return env().PRELOAD_PAGES;
  },
  /** Tests only: the process clock starts this far from the machine's (lib/clock.ts). */
  get clockOffsetMs() {
    return env().CLOCK_OFFSET_MS;
  },
  database: {
    /**
     * Where connections that keep session state go (the migration lock, LISTEN, graphile-worker):
     * DATABASE_DIRECT_URL when DATABASE_URL is a transaction-mode pooler, else DATABASE_URL.
     */
    get directUrl() {
      return env().DATABASE_DIRECT_URL ?? config.databaseUrl;
    },
    get poolSize() {
      return env().DATABASE_POOL_SIZE;
    },
    /** Connections that renew Idempotency-Key leases, apart from the pool requests wait on (lib/db/client.ts). */
    get leasePoolSize() {
      return env().DATABASE_LEASE_POOL_SIZE;
    },
    get preparedStatements() {
      return env().DATABASE_PREPARED_STATEMENTS;
    },
    get countRoundTrips() {
      return env().DB_COUNT_ROUND_TRIPS;
    },
    /**
     * Extra settings of the embedded PostgreSQL, `name=value` separated by spaces (e.g. the
     * webhook benchmark's `track_commit_timestamp=on`, to measure from the real commit time).
     */
    get embeddedSettings() {
      return env().EMBEDDED_POSTGRES_SETTINGS.split(/\s+/).filter(Boolean);
    },
    /**
     * How long a process waits for the schema before giving up: `npm start` for the migration
     * lock another process holds, `npm run worker` for the migrations to be applied (lib/db/migrate.ts).
     */
    get schemaWaitMs() {
      return env().DATABASE_SCHEMA_WAIT_MS;
    },
  },
  /** A web node stopping on SIGTERM (lib/http/drain.ts, docs/operations.md "Stopping a web node"). */
  shutdown: {
    /** How long it keeps accepting connections after /api/health/ready turns 503, for balancers that poll it. */
    get readinessDelayMs() {
      return env().SHUTDOWN_READINESS_DELAY_MS;
    },
    /** How long requests in progress may take to finish once it stops accepting connections. */
    get drainMs() {
      return env().SHUTDOWN_DRAIN_MS;
    },
  },
  /** What the first start creates (lib/server/seed.ts); unset ones fall back to local defaults outside production. */
  seed: {
    get adminName() {
      return env().ADMIN_NAME;
    },
    get adminPassword() {
      return env().ADMIN_PASSWORD;
    },
    /** Seed the demo seller in production too. */
    get demoInProduction() {
      return env().SEED_DEMO;
    },
    get sampleData() {
      return env().SEED_SAMPLE_DATA;
    },
    get demoMerchantEmail() {
      return env().DEMO_MERCHANT_EMAIL;
    },
    get demoMerchantPassword() {
      return env().DEMO_MERCHANT_PASSWORD;
    },
    get demoApiKey() {
      return env().DEMO_API_KEY;
    },
  },
  email: {
    get smtpUrl() {
      return env().SMTP_URL;
    },
    get mailFrom() {
      return env().MAIL_FROM;
    },
  },
  auth: {
    /** The installation's root secret when set (lib/secret-key.ts); required in production. */
    get secretKey() {
      return env().SECRET_KEY;
    },
    get passwordScryptLog2N() {
      return env().PASSWORD_SCRYPT_LOG2_N;
    },
    /** Failed sign-ins one address may make for one account per window (docs/auth.md, "Rate limits"). */
    get signInMaxFailuresPerAccountAndIp() {
      return env().SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_IP;
    },
    /** The backstop: past it, only addresses that signed in to the account before may try it. */
    get signInMaxFailuresPerAccount() {
      return env().SIGN_IN_MAX_FAILURES_PER_ACCOUNT;
    },
    /** Where notices about the platform admins' sign-ins go; unset, they are logged only. */
    get adminEmail() {
      return env().ADMIN_EMAIL;
    },
    get signInMaxFailuresPerIp() {
      return env().SIGN_IN_MAX_FAILURES_PER_IP;
    },
    get signUpMaxPerIp() {
      return env().SIGN_UP_MAX_PER_IP;
    },
    get passwordResetMaxPerEmail() {
      return env().PASSWORD_RESET_MAX_PER_EMAIL;
    },
  },
  http: {
    /** Take the client address from `X-Forwarded-For` (behind a proxy that overwrites it). */
    get trustProxy() {
      return env().TRUST_PROXY;
    },
    /**
     * Developer-API requests one API key may make per window, in each server process (docs/api.md,
     * "Rate limits"); `API_RATE_LIMIT_WINDOW_SECONDS` sets the window.
     */
    get apiRateLimit() {
      return env().API_RATE_LIMIT;
    },
    get apiRateLimitWindowSeconds() {
      return env().API_RATE_LIMIT_WINDOW_SECONDS;
    },
    /**
     * The largest request body any endpoint reads, in bytes (docs/api.md, "Limits"): a larger
     * one is refused with 413 before it is read, parsed or authenticated.
     */
    get maxBodyBytes() {
      return env().MAX_REQUEST_BODY_BYTES;
    },
    /** How long an Idempotency-Key stays held by a request that stopped renewing it (its process died). */
    get idempotencyLeaseMs() {
      return env().IDEMPOTENCY_LEASE_MS;
    },
  },
  /** The payment processor every payment goes through (docs/processors.md). */
  processor: {
    get name() {
      return env().PAYMENT_PROCESSOR;
    },
    stripe: {
      get secretKey() {
        return env().STRIPE_SECRET_KEY;
      },
      get publishableKey() {
        return env().STRIPE_PUBLISHABLE_KEY;
      },
      /** Unset: the platform connection registers its own endpoint at Stripe at start (lib/processors/stripe/webhook-endpoint.ts). */
      get webhookSecret() {
        return env().STRIPE_WEBHOOK_SECRET;
      },
      get apiUrl() {
        return env().STRIPE_API_URL;
      },
      get jsUrl() {
        return env().STRIPE_JS_URL;
      },
    },
  },
  payments: {
    /**
     * Sandbox only: how long each processor call takes, as a real network call would. At most a
     * minute, inside the pending-payment reconciliation delay below, which must outlast any
     * processor call (the Idempotency-Key lease is renewed while a call runs).
     */
    get sandboxLatencyMs() {
      return env().SANDBOX_PROCESSOR_LATENCY_MS;
    },
    /** How long after a `payment.unknown` the processor is asked again (sandbox: settles then). */
    get reconcileDelayMs() {
      return env().PAYMENT_RECONCILE_DELAY_MS;
    },
    /**
     * A payment or refund still `pending`/`requested` this long after phase 1 is finished by
     * reconciliation (its request crashed). Longer than any processor call may take.
     */
    get pendingReconcileAfterMs() {
      return env().PAYMENT_PENDING_RECONCILE_AFTER_MS;
    },
    /**
     * How many times recovery tries to finish a pending payment, or to settle an unknown one,
     * before handing it to a person as `needs_review`.
     */
    get recoveryMaxAttempts() {
      return env().PAYMENT_RECOVERY_MAX_ATTEMPTS;
    },
    /**
     * A payment still `requires_action` this long after the processor asked the customer to
     * authenticate is abandoned: canceled at the processor and failed, its reservations given back.
     */
    get actionTimeoutMs() {
      return env().PAYMENT_ACTION_TIMEOUT_MS;
    },
  },
  subscriptions: {
    /** Dunning: days after a failed renewal's first attempt at which it is tried again. */
    get dunningDays(): readonly number[] {
      return env().SUBSCRIPTION_DUNNING_DAYS;
    },
    /** How long after a period ends its usage is finalized (late usage with a timestamp in it still counts), e.g. `1h`. */
    get usageGracePeriod() {
      return env().USAGE_GRACE_PERIOD;
    },
  },
  webhooks: {
    /** Delays after each failed attempt (DESIGN 5); e.g. `5s,5m,30m,2h,5h,10h,10h`. Tests compress it. */
    get retrySchedule() {
      return env().WEBHOOK_RETRY_SCHEDULE;
    },
    get timeoutMs() {
      return env().WEBHOOK_TIMEOUT_MS;
    },
    /** Development and tests only: lets receivers live on loopback and private networks. */
    get allowPrivateUrls() {
      return env().WEBHOOK_ALLOW_PRIVATE_URLS;
    },
    /** Attempts in flight at once per endpoint, across every dispatcher process (docs/webhooks.md). */
    get endpointConcurrency() {
      return env().WEBHOOK_ENDPOINT_CONCURRENCY;
    },
    /** The same limit for an endpoint whose latest attempts all failed (docs/webhooks.md, "Limits"). */
    get failingEndpointConcurrency() {
      return env().WEBHOOK_FAILING_ENDPOINT_CONCURRENCY;
    },
    /** Attempts one dispatcher process keeps in flight (claimed and not yet recorded) at most. */
    get maxInFlight() {
      return env().WEBHOOK_MAX_IN_FLIGHT;
    },
    /** An endpoint failing every attempt for this long is disabled. */
    get disableAfter() {
      return env().WEBHOOK_DISABLE_AFTER;
    },
  },
};
