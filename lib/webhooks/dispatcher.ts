import crypto from 'node:crypto';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { COLUMN_CASING, type Database } from '../db/client';
import { now } from '../clock';
import { config } from '../config';
import { log } from '../log';
import { liveSigningSecrets } from './endpoints';
import { eventBody } from './deliveries';
import { attemptLeaseMs } from './policy';
import { claimDueDeliveries, type ClaimedDelivery } from './claim';
import { recordAttemptResults, type AttemptResult } from './record';
import { sendWebhookRequest, webhookAgent, closeWebhookAgent } from './send';
import { signatureHeader } from './signature';
import { DELIVERIES_CHANNEL } from '../events/channel';

/** Rows per claim (the 100–500); fewer when the process is near WEBHOOK_MAX_IN_FLIGHT. */
const CLAIM_BATCH = 500;
/** Finished attempts are recorded when this many are waiting, or FLUSH_DELAY_MS after the first. */
const FLUSH_BATCH = 500;
const FLUSH_DELAY_MS = 5;
/** Fallback when no notification arrives: retries coming due, leases of crashed dispatchers. */
const POLL_INTERVAL_MS = 1_000;

/** An attempt's headers: a fresh timestamp and signature on every attempt; the body never changes. */
export function deliveryHeaders(
  delivery: Pick<ClaimedDelivery, 'id' | 'eventId' | 'eventType'>,
  secrets: string[],
  body: string,
  startedAt: Date,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Paybase-Webhooks/1.0',
    'X-Service-Signature': signatureHeader(secrets, Math.floor(startedAt.getTime() / 1000), body),
    'X-Service-Event-Id': delivery.eventId,
    'X-Service-Delivery-Id': delivery.id,
    'X-Service-Event-Type': delivery.eventType,
  };
}

export interface Dispatcher {
  readonly id: string;
  /** Attempts this dispatcher has sent since it started. */
  readonly sent: number;
  stop(): Promise<void>;
}

/**
 * The webhook dispatcher of one process (docs/webhooks.md): claims due deliveries in batches,
 * sends them concurrently over the process-wide keep-alive agent, and records finished attempts
 * in batches on a short timer, so one slow endpoint never holds up the bookkeeping of others.
 * It wakes on NOTIFY, after each flush, at the earliest retry it scheduled, and every second.
 */
export async function startDispatcher(): Promise<Dispatcher> {
  const id = `dispatcher-${crypto.randomBytes(6).toString('hex')}`;
  // Its own small pool with asynchronous commit: claims and records then do not wait for the
  // WAL flush. A database crash can forget the last fraction of a second of them, which only
  // means those deliveries are sent again (at-least-once); events themselves stay durable.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, options: '-c synchronous_commit=off' });
  // Once stopping, the database going away is the expected end (the process is shutting down).
  pool.on('error', (error) => {
    if (!stopping) log.warn({ err: error }, 'webhook dispatcher database connection lost');
  });
  const db: Database = drizzle(pool, { casing: COLUMN_CASING });
  const agent = webhookAgent();
  const endpointConcurrency = config.webhooks.endpointConcurrency;
  const failingEndpointConcurrency = config.webhooks.failingEndpointConcurrency;
  const maxInFlight = config.webhooks.maxInFlight;
  const timeoutMs = config.webhooks.timeoutMs;

  let stopping = false;
  let sent = 0;
  /** Claimed and not yet recorded (the leases this process holds). */
  let inFlight = 0;
  let claiming = false;
  let claimAgain = false;
  let finished: AttemptResult[] = [];
  let flushing: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  const sending = new Set<Promise<void>>();

  async function pump(): Promise<void> {
    if (stopping) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        claimAgain = false;
        for (;;) {
          const limit = Math.min(CLAIM_BATCH, maxInFlight - inFlight);
          if (limit <= 0 || stopping) break;
          const claimed = await claimDueDeliveries(pool, {
            dispatcherId: id,
            limit,
            endpointConcurrency,
            failingEndpointConcurrency,
            leaseMs: attemptLeaseMs(),
            at: now(),
          });
          inFlight += claimed.length;
          log.debug({ dispatcherId: id, limit, claimed: claimed.length, inFlight }, 'webhook deliveries claimed');
          sendAll(claimed);
          if (claimed.length < limit) break;
        }
      } while (claimAgain && !stopping);
    } catch (error) {
      log.error({ err: error, dispatcherId: id }, 'webhook claim failed');
    } finally {
      claiming = false;
    }
  }

  function sendAll(claimed: ClaimedDelivery[]) {
    // Secrets are decrypted once per endpoint per claim, bodies built once per event.
    const secrets = new Map<string, string[]>();
    const bodies = new Map<string, string>();
    const startedAt = now();
    for (const delivery of claimed) {
      let endpointSecrets = secrets.get(delivery.endpointId);
      try {
        endpointSecrets ??= liveSigningSecrets({ ...delivery, id: delivery.endpointId }, startedAt);
      } catch (error) {
        // A secret this process cannot decrypt (a SECRET_KEY differing from the other
        // processes'): nothing is sent, and the lease expires for a dispatcher that can.
        log.error({ err: error, dispatcherId: id, endpointId: delivery.endpointId }, 'cannot decrypt a webhook signing secret');
        inFlight--;
        continue;
      }
      secrets.set(delivery.endpointId, endpointSecrets);
      let body = bodies.get(delivery.eventId);
      if (!body) {
        body = eventBody({ id: delivery.eventId, type: delivery.eventType, createdAt: delivery.eventCreatedAt, data: delivery.eventData });
        bodies.set(delivery.eventId, body);
      }
      const task = send(delivery, endpointSecrets, body).finally(() => sending.delete(task));
      sending.add(task);
    }
  }

  async function send(delivery: ClaimedDelivery, secrets: string[], body: string) {
    const startedAt = now();
    const headers = deliveryHeaders(delivery, secrets, body, startedAt);
    const outcome = await sendWebhookRequest({ url: delivery.url, headers, body, timeoutMs }, agent);
    sent++;
    finished.push({ delivery, headers, startedAt, finishedAt: now(), outcome });
    if (finished.length >= FLUSH_BATCH) void flush();
    else flushTimer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
  }

  async function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (flushing) return flushing.then(() => (finished.length > 0 ? flush() : undefined));
    const batch = finished;
    finished = [];
    if (batch.length === 0) return;
    flushing = (async () => {
      try {
        const { earliestRetryAt } = await recordAttemptResults(db, id, batch);
        inFlight -= batch.length;
        log.debug({ dispatcherId: id, recorded: batch.length, inFlight }, 'webhook attempts recorded');
        if (earliestRetryAt) scheduleWake(earliestRetryAt.getTime());
      } catch (error) {
        // Keep the results: they are recorded on the next flush (the leases still stand).
        log.error({ err: error, dispatcherId: id, attempts: batch.length }, 'recording webhook attempts failed');
        finished = batch.concat(finished);
        flushTimer ??= setTimeout(() => void flush(), POLL_INTERVAL_MS);
      }
    })();
    await flushing;
    flushing = undefined;
    if (finished.length > 0) flushTimer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
    void pump();
  }

  /** A retry this process just scheduled sooner than the next poll: wake for it. */
  function scheduleWake(at: number) {
    if (at >= wakeAt) return;
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeAt = at;
    wakeTimer = setTimeout(
      () => {
        wakeAt = Infinity;
        wakeTimer = undefined;
        void pump();
      },
      Math.max(0, at - now().getTime()),
    );
  }

  const listener = await listen(() => void pump());
  const poll = setInterval(() => void pump(), POLL_INTERVAL_MS);
  void pump();
  log.info({ dispatcherId: id, endpointConcurrency, failingEndpointConcurrency, maxInFlight }, 'webhook dispatcher started');

  return {
    id,
    get sent() {
      return sent;
    },
    async stop() {
      stopping = true;
      clearInterval(poll);
      if (wakeTimer) clearTimeout(wakeTimer);
      await listener.close();
      while (claiming) await new Promise((resolve) => setTimeout(resolve, 10));
      // Attempts in flight finish (each is bounded by the timeout) and are recorded; what
      // cannot be recorded now (database gone) is sent again after its lease.
      await Promise.allSettled([...sending]);
      for (let tries = 0; tries < 3 && (finished.length > 0 || flushing); tries++) await flush();
      await closeWebhookAgent();
      await pool.end();
      log.info({ dispatcherId: id, sent }, 'webhook dispatcher stopped');
    },
  };
}

/**
 * LISTEN on its own connection (a pooled one would drop the subscription); reconnects after a
 * lost connection, while the poll covers the gap.
 */
async function listen(onNotify: () => void): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: config.databaseUrl });
    next.on('notification', onNotify);
    next.on('error', (error) => {
      log.warn({ err: error }, 'webhook dispatcher lost its LISTEN connection');
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), POLL_INTERVAL_MS);
    });
    try {
      await next.connect();
      await next.query(`listen ${DELIVERIES_CHANNEL}`);
      client = next;
    } catch (error) {
      log.warn({ err: error }, 'webhook dispatcher could not LISTEN; polling meanwhile');
      await next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), POLL_INTERVAL_MS);
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
