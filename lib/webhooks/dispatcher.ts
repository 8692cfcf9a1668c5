import crypto from 'node:crypto';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { COLUMN_CASING, DISPATCHER_POOL_SIZE, type Database } from '../db/client';
import { now } from '../clock';
import { config } from '../config';
import { log } from '../log';
import { metrics } from '../metrics/registry';
import { attemptLeaseMs } from './policy';
import { claimDueDeliveries, type ClaimedDelivery } from './claim';
import type { AttemptResult } from './record';
import { attemptRequests, notSentResult, UNPREPARED_ATTEMPT_ERROR } from './attempt-request';
import { createAttemptRecorder } from './attempt-recorder';
import { sendWebhookRequest, webhookAgent, closeWebhookAgent } from './send';
import { DELIVERIES_CHANNEL } from '../events/channel';
import { createChangeOrder } from './change-order';

/** Rows per claim (the 100–500); fewer when the process is near WEBHOOK_MAX_IN_FLIGHT. */
const CLAIM_BATCH = 500;
/** Fallback when no notification arrives: retries coming due, leases of crashed dispatchers. */
const POLL_INTERVAL_MS = 1_000;

export interface Dispatcher {
  readonly id: string;
  /** Attempts this dispatcher has sent since it started. */
  readonly sent: number;
  stop(): Promise<void>;
}

/**
 * The webhook dispatcher of one process (docs/webhooks.md): claims due deliveries in batches,
 * sends them concurrently over the process-wide keep-alive agent, and hands every finished
 * attempt, sent or not, to its recorder (./attempt-recorder.ts), which records them in batches
 * on a short timer, so one slow endpoint never holds up the bookkeeping of others. It wakes on
 * NOTIFY, after each flush, at the earliest retry it scheduled, and every second; it claims
 * nothing while its attempts cannot be recorded.
 */
export async function startDispatcher(): Promise<Dispatcher> {
  const id = `dispatcher-${crypto.randomBytes(6).toString('hex')}`;
  // Its own small pool with asynchronous commit: claims and records then do not wait for the
  // WAL flush. A database crash can forget the last fraction of a second of them, which only
  // means those deliveries are sent again (at-least-once); events themselves stay durable.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: DISPATCHER_POOL_SIZE, options: '-c synchronous_commit=off' });
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
  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  const sending = new Set<Promise<void>>();
  /** One change's events to one endpoint go out in their order (./change-order.ts). */
  const changeOrder = createChangeOrder(timeoutMs);
  /** Endpoints whose secret this process could not decrypt, logged once each. */
  const undecryptable = new Set<string>();
  const recorder = createAttemptRecorder({
    db,
    dispatcherId: id,
    onSettled(settled, earliestRetryAt) {
      inFlight -= settled;
      log.debug({ dispatcherId: id, recorded: settled, inFlight }, 'webhook attempts recorded');
      if (earliestRetryAt) scheduleWake(earliestRetryAt.getTime());
      void pump();
    },
  });

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
          // While attempts cannot be recorded, sending more would only grow what this process
          // holds (and, once leases run out, repeat it): nothing is claimed until recording resumes.
          if (limit <= 0 || stopping || recorder.failing) break;
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
    const requestOf = attemptRequests((endpointId, error) => {
      if (undecryptable.has(endpointId)) return;
      undecryptable.add(endpointId);
      // A SECRET_KEY differing from the other processes': the attempts fail visibly (recorded, retried, then dead).
      log.error({ err: error, dispatcherId: id, endpointId }, 'cannot decrypt a webhook signing secret; its attempts are recorded as failed');
    });
    for (const scheduled of changeOrder.schedule(claimed, (delivery) => attempt(delivery, requestOf))) {
      const task = scheduled.finally(() => sending.delete(task));
      sending.add(task);
    }
  }

  /** One attempt, whatever happens on the way: its result always reaches the recorder. */
  async function attempt(delivery: ClaimedDelivery, requestOf: ReturnType<typeof attemptRequests>): Promise<void> {
    const startedAt = now();
    const measured = metrics();
    if (delivery.attemptCount === 0 && delivery.trigger === 'automatic') {
      measured.webhookFirstAttemptLag.observe(Math.max(0, startedAt.getTime() - delivery.eventCreatedAt.getTime()) / 1000);
    }
    let result: AttemptResult;
    try {
      const request = requestOf(delivery, startedAt);
      if ('notSent' in request) result = notSentResult(delivery, startedAt, request.notSent);
      else {
        const outcome = await sendWebhookRequest({ url: delivery.url, headers: request.headers, body: request.body, timeoutMs }, agent);
        sent++;
        result = { delivery, headers: request.headers, startedAt, finishedAt: now(), outcome };
      }
    } catch (error) {
      log.error({ err: error, dispatcherId: id, deliveryId: delivery.id }, 'a webhook attempt failed before its request was made');
      result = notSentResult(delivery, startedAt, UNPREPARED_ATTEMPT_ERROR);
    }
    measured.webhookAttempts.inc({ result: result.outcome.succeeded ? 'delivered' : result.outcome.status === null ? 'no_answer' : 'refused' });
    recorder.add(result);
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
      await recorder.close(3);
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
    const next = new pg.Client({ connectionString: config.database.directUrl });
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
