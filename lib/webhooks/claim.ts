import type pg from 'pg';
import type { WebhookAttemptTrigger, WebhookDeliveryStatus } from '../db/schema';
import { webhookDeliveryStateMachine } from '../events/webhook-delivery-states';

/** Retiring a disabled endpoint's automatic work: `dead`, from the states the table allows (literals: the claim takes no parameters). */
const RETIRED = literal('dead');
const RETIRED_FROM = webhookDeliveryStateMachine.sourcesOf('dead').map(literal).join(', ');

/**
 * The history's entry for an attempt whose outcome its dispatcher never recorded (it stopped, or
 * could not record it, before the lease ran out): written when the delivery is claimed again.
 */
export const LOST_ATTEMPT_ERROR =
  'No outcome was recorded for this attempt: the dispatcher sending it stopped, or could not record it, before its lease ran out. ' +
  'The receiver may have received it; it was sent again.';
const LOST_ATTEMPT = literal(LOST_ATTEMPT_ERROR);

/** Serialises claims across dispatcher processes (see claimDueDeliveries); any fixed number. */
const CLAIM_LOCK_KEY = 0x7765626b; // 'webk'

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  trigger: WebhookAttemptTrigger;
  /** The Retry/recover request this attempt answers (cleared on record only if unchanged). */
  requestedAt: Date | null;
  leaseUntil: Date;
  url: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  eventSequence: number;
  /**
   * The transaction that recorded the event (its row's `xmin`): the events of one change share it.
   * The dispatcher sends those to one endpoint one after another (docs/webhooks.md, "Ordering").
   */
  eventTransaction: string;
  eventCreatedAt: Date;
  eventData: { object: Record<string, unknown> };
}

export interface ClaimOptions {
  dispatcherId: string;
  /** Rows to claim at most. */
  limit: number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY: leases per endpoint across every dispatcher. */
  endpointConcurrency: number;
  /** WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: the same for an endpoint whose attempts are failing. */
  failingEndpointConcurrency: number;
  leaseMs: number;
  at: Date;
}

/**
 * Claims due deliveries in one statement: the oldest due rows whose endpoint has a free slot,
 * locked with SKIP LOCKED (so no row is ever claimed twice), ranked per endpoint so one
 * endpoint's backlog cannot fill the batch, and leased (`lease_until` and `due_at` move to the
 * lease end: a dispatcher that dies leaves rows that simply come due again).
 *
 * The per-endpoint limit counts unexpired leases, which a concurrent claim's snapshot cannot
 * see until it commits; a transaction-scoped advisory lock makes claims take turns, so the
 * count is always exact. A claim is one short statement, so the turns cost little.
 *
 * The claim walks the queue's partial indexes (due rows, leased rows) and looks rows up by id,
 * never scanning the table: the due rows are a small, fast-moving part of a table that every
 * attempt updates twice, so the planner's statistics always lag behind it (it estimated
 * thousands of due rows where there were tens, and scanned the bloated table three times per
 * claim, ~10 ms of PostgreSQL each time). Sequential and bitmap scans are off for the claim's own
 * transaction and ids go through `= any(array(…))`; plain index scans also let PostgreSQL mark
 * the dead index entries they step over, so the next claim skips them.
 *
 * Automatic work of a disabled endpoint is retired (`dead`) on the way, as the old per-delivery
 * job did when it found its endpoint disabled; Retry and recover requests still go out.
 *
 * A row still carrying a lease (`lease_worker_id`) when it is claimed or retired holds an attempt
 * that was claimed and never recorded: its dispatcher died, or gave the result up, and the lease
 * ran out. That attempt may have reached the receiver, so it goes into the history as an attempt
 * without an outcome (started when its lease began), and an automatic one counts towards the
 * schedule: a delivery whose attempts keep getting lost still ends.
 */
export async function claimDueDeliveries(pool: pg.Pool, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const leaseUntilDate = new Date(options.at.getTime() + options.leaseMs);
  // One round trip: a simple-protocol query of several statements runs as one transaction (the
  // advisory lock is held to its end, each statement still sees what committed before it), but
  // takes no parameters, so the values (timestamps, numbers, our own id) are literals.
  const at = literal(options.at.toISOString());
  const leaseUntil = literal(leaseUntilDate.toISOString());
  const dispatcherId = literal(options.dispatcherId);
  const limit = integer(options.limit);
  const leaseInterval = `interval '${integer(options.leaseMs)} milliseconds'`;
  const endpointConcurrency = integer(options.endpointConcurrency);
  const failingEndpointConcurrency = integer(Math.min(options.failingEndpointConcurrency, options.endpointConcurrency));
  const results = (await pool.query(`
      select pg_advisory_xact_lock(${CLAIM_LOCK_KEY});
      set local enable_seqscan = off;
      set local enable_bitmapscan = off;
      with busy as (
        select endpoint_id, count(*)::int as in_flight
        from webhook_deliveries
        where lease_until is not null and lease_until > ${at}::timestamptz
        group by endpoint_id
      ), candidates as (
        -- Read only: the oldest due rows of endpoints with a free slot (a saturated endpoint's
        -- backlog is filtered out, so the next endpoints' rows are reached). Locking happens
        -- below, on the rows actually taken.
        select d.id, d.endpoint_id, d.due_at, d.event_sequence, d.requested_trigger, e.enabled, coalesce(b.in_flight, 0) as in_flight, l.slots
        from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        cross join lateral (
          select case when e.failing_since is null then ${endpointConcurrency} else ${failingEndpointConcurrency} end as slots
        ) l
        left join busy b on b.endpoint_id = d.endpoint_id
        where d.due_at <= ${at}::timestamptz and coalesce(b.in_flight, 0) < l.slots
        order by d.due_at, d.event_sequence
        limit ${limit}
      ), retiring as (
        select l.id, l.endpoint_id, l.lease_worker_id, l.lease_until, l.requested_trigger from webhook_deliveries l
        where l.id = any(array(select id from candidates where not enabled and requested_trigger is null)) and l.due_at <= ${at}::timestamptz
        for update skip locked
      ), retired as (
        update webhook_deliveries d
        set status = case when d.status in (${RETIRED_FROM}) then ${RETIRED} else d.status end,
          due_at = null, next_attempt_at = null, last_error = 'The endpoint is disabled.',
          lease_until = null, lease_worker_id = null, updated_at = ${at}::timestamptz
        where d.id = any(array(select id from retiring))
      ), chosen as (
        select l.id, l.endpoint_id, l.lease_worker_id, l.lease_until, l.requested_trigger from webhook_deliveries l
        where l.due_at <= ${at}::timestamptz and l.id = any(array(
          select id from (
            select id, slots, in_flight + row_number() over (partition by endpoint_id order by due_at, event_sequence, id) as slot
            from candidates
            where enabled or requested_trigger is not null
          ) ranked
          where slot <= slots
          order by slot
          limit ${limit}))
        for update skip locked
      ), lost as (
        select * from retiring where lease_worker_id is not null
        union all
        select * from chosen where lease_worker_id is not null
      ), lost_attempts as (
        insert into webhook_attempts (delivery_id, trigger, url, request_headers, started_at, duration_ms, response_status, response_body, error, succeeded)
        select lost.id, coalesce(lost.requested_trigger, 'automatic'), e.url, '{}'::jsonb, lost.lease_until - ${leaseInterval}, 0, null, null, ${LOST_ATTEMPT}, false
        from lost join webhook_endpoints e on e.id = lost.endpoint_id
      )
      update webhook_deliveries d
      set lease_until = ${leaseUntil}::timestamptz, due_at = ${leaseUntil}::timestamptz, lease_worker_id = ${dispatcherId},
        attempt_count = d.attempt_count + case when c.lease_worker_id is not null and c.requested_trigger is null then 1 else 0 end
      from webhook_endpoints e, events ev, chosen c
      where d.id = any(array(select id from chosen)) and c.id = d.id and e.id = d.endpoint_id and ev.id = d.event_id
      returning d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count, d.requested_trigger, d.requested_at,
        e.url, e.secret_ciphertext, e.previous_secret_ciphertext, e.previous_secret_expires_at,
        ev.sequence as event_sequence, ev.xmin::text as event_transaction, ev.created_at as event_created_at, ev.data as event_data`)) as unknown as pg.QueryResult<RawClaim>[];
  return results[3]!.rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    trigger: row.requested_trigger ?? 'automatic',
    requestedAt: toDate(row.requested_at),
    leaseUntil: leaseUntilDate,
    url: row.url,
    secretCiphertext: row.secret_ciphertext,
    previousSecretCiphertext: row.previous_secret_ciphertext,
    previousSecretExpiresAt: toDate(row.previous_secret_expires_at),
    eventSequence: Number(row.event_sequence),
    eventTransaction: row.event_transaction,
    eventCreatedAt: toDate(row.event_created_at)!,
    eventData: row.event_data,
  }));
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function integer(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}

interface RawClaim {
  [column: string]: unknown;
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  requested_trigger: 'manual' | 'recover' | null;
  requested_at: Date | string | null;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | string | null;
  event_sequence: string | number;
  event_transaction: string;
  event_created_at: Date | string;
  event_data: { object: Record<string, unknown> };
}

function toDate(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
