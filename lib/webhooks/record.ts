import { eq, and, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sqlStateOf } from '../db/errors';
import { webhookDeliveries, webhookEndpoints, type WebhookDeliveryStatus } from '../db/schema';
import { now } from '../clock';
import { log } from '../log';
import { findMerchantById } from '../merchants/merchants';
import { sendEmail } from '../email/send-email';
import { attemptLeaseMs, disableAfterMs, nextRetryDelayMs } from './policy';
import { LOST_ATTEMPT_ERROR, type ClaimedDelivery } from './claim';
import { RESPONSE_BODY_LIMIT, type SendOutcome } from './send';
import { webhookDeliveryStateMachine } from '../events/webhook-delivery-states';
import { storableText } from '../stored-text';

/** One finished attempt waiting to be recorded. */
export interface AttemptResult {
  delivery: ClaimedDelivery;
  headers: Record<string, string>;
  startedAt: Date;
  finishedAt: Date;
  outcome: SendOutcome;
}

/** Where an attempt leaves its delivery; `undefined` status: a failed Retry/recover changes neither state nor schedule. */
export function nextDeliveryState(result: AttemptResult, random: () => number = Math.random): { status?: WebhookDeliveryStatus; nextAttemptAt: Date | null } {
  const { delivery, outcome } = result;
  if (outcome.succeeded) return { status: 'delivered', nextAttemptAt: null };
  if (delivery.trigger !== 'automatic') return { nextAttemptAt: null };
  const delay = outcome.status === 410 ? undefined : nextRetryDelayMs(delivery.attemptCount + 1, random);
  if (delay === undefined) return { status: 'dead', nextAttemptAt: null };
  return { status: 'failed', nextAttemptAt: new Date(result.finishedAt.getTime() + delay) };
}

/** The most of an attempt's error message that is kept. */
const ERROR_LIMIT = 1_000;

/**
 * An attempt PostgreSQL refused to store as it was (`recordAttemptResults` failed on it alone):
 * the same outcome without the receiver's answer and the request's headers, saying so.
 */
export function withoutAnswer(result: AttemptResult, refusal: unknown): AttemptResult {
  const code = sqlStateOf(refusal);
  const note = `The receiver's answer could not be stored (PostgreSQL refused it${code ? `: ${code}` : ''}) and is left out.`;
  return { ...result, headers: {}, outcome: { ...result.outcome, responseBody: null, error: result.outcome.error ? `${result.outcome.error} ${note}` : note } };
}

/** Per endpoint, in the order the attempts finished: how the failure streak ends. */
function streaksOf(results: AttemptResult[]) {
  const byEndpoint = new Map<string, { hadSuccess: boolean; failingFrom: Date | null; gone: boolean }>();
  for (const { delivery, outcome, startedAt } of results) {
    const streak = byEndpoint.get(delivery.endpointId) ?? { hadSuccess: false, failingFrom: null, gone: false };
    if (outcome.succeeded) Object.assign(streak, { hadSuccess: true, failingFrom: null });
    else streak.failingFrom ??= startedAt;
    if (outcome.status === 410) streak.gone = true;
    byEndpoint.set(delivery.endpointId, streak);
  }
  return byEndpoint;
}

const array = <T>(values: T[]) => sql.param(values);

/** The states automatic attempts are made in (those that may still fail and be retried). */
const RETRYING = webhookDeliveryStateMachine.sourcesOf('failed');
/** Whether the delivery may move to the attempt's next state: its state is one the table moves there from. */
const MOVES = sql`d.status = any(string_to_array(r.sources, ','))`;

/**
 * Records a batch of finished attempts in one transaction: one statement inserts the attempts,
 * moves each delivery to its next state (releasing its lease; a Retry asked for meanwhile keeps
 * it due) and updates each endpoint's failure streak once; then the endpoints that must now be
 * disabled (410 Gone, or failing for WEBHOOK_DISABLE_AFTER) are disabled. All of it commits or
 * none of it does, so a batch that fails can be recorded again without writing an attempt twice.
 * The receiver's answer and error messages are made storable (lib/stored-text.ts) on the way.
 *
 * A delivery is only updated while this dispatcher's lease on it stands, so a result that
 * arrives after the lease was taken over cannot overwrite the newer attempt's bookkeeping. The
 * claim that took it over wrote the attempt into the history as lost (its outcome unknown then);
 * the late result fills in that row, so one request stays one attempt in the history.
 * Deliveries are found by `id = any(ids)`, an index lookup whatever the table's statistics say
 * (see claimDueDeliveries).
 */
export async function recordAttemptResults(db: Db, dispatcherId: string, results: AttemptResult[]): Promise<{ earliestRetryAt?: Date }> {
  if (results.length === 0) return {};
  const at = now();
  const states = results.map((result) => nextDeliveryState(result));
  const streaks = [...streaksOf(results)];
  const cutoff = new Date(at.getTime() - disableAfterMs());
  const deliveryIds = array(results.map((r) => r.delivery.id));
  await db.transaction(async (tx) => {
    const toDisable = await tx.execute<{ id: string; gone: boolean }>(sql`
    with r as (
      select * from unnest(
        ${deliveryIds}::text[],
        ${array(results.map((r) => r.delivery.trigger))}::text[],
        ${array(results.map((r) => r.delivery.url))}::text[],
        ${array(results.map((r) => JSON.stringify(r.headers)))}::text[],
        ${array(results.map((r) => r.startedAt.toISOString()))}::timestamptz[],
        ${array(results.map((r) => r.outcome.durationMs))}::int[],
        ${array(results.map((r) => r.outcome.status))}::int[],
        ${array(results.map((r) => storableText(r.outcome.responseBody, RESPONSE_BODY_LIMIT)))}::text[],
        ${array(results.map((r) => storableText(r.outcome.error, ERROR_LIMIT)))}::text[],
        ${array(results.map((r) => String(r.outcome.succeeded)))}::bool[],
        ${array(states.map((s) => s.status ?? null))}::text[],
        ${array(states.map((s) => (s.status ? webhookDeliveryStateMachine.sourcesOf(s.status).join(',') : '')))}::text[],
        ${array(states.map((s) => s.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
        ${array(results.map((r) => (r.delivery.trigger === 'automatic' ? 1 : 0)))}::int[],
        ${array(results.map((r) => r.delivery.requestedAt?.toISOString() ?? null))}::timestamptz[],
        ${array(results.map((r) => r.delivery.leaseUntil.toISOString()))}::timestamptz[]
      ) as r(delivery_id, trigger, url, headers, started_at, duration_ms, response_status, response_body, error, succeeded,
             next_status, sources, next_attempt_at, counted, requested_at, lease_until)
    ), present as (
      select id from webhook_deliveries where id = any(${deliveryIds}::text[])
    ), held as (
      select d.id, d.lease_until from webhook_deliveries d
      where d.id = any(${deliveryIds}::text[]) and d.lease_worker_id = ${dispatcherId}
      for update
    ), late as (
      update webhook_attempts a
      set started_at = r.started_at, request_headers = r.headers::jsonb, duration_ms = r.duration_ms, response_status = r.response_status,
        response_body = r.response_body, error = r.error, succeeded = r.succeeded
      from r
      where a.delivery_id = r.delivery_id and a.error = ${LOST_ATTEMPT_ERROR} and a.response_status is null
        and a.started_at = r.lease_until - ${`${attemptLeaseMs()} milliseconds`}::interval
        and not exists (select 1 from held where held.id = r.delivery_id and held.lease_until = r.lease_until)
      returning a.delivery_id, r.lease_until
    ), attempts as (
      insert into webhook_attempts (delivery_id, trigger, url, request_headers, started_at, duration_ms, response_status, response_body, error, succeeded)
      select r.delivery_id, r.trigger, r.url, r.headers::jsonb, r.started_at, r.duration_ms, r.response_status, r.response_body, r.error, r.succeeded
      from r join present on present.id = r.delivery_id
      where not exists (select 1 from late where late.delivery_id = r.delivery_id and late.lease_until = r.lease_until)
    ), deliveries as (
      update webhook_deliveries d
      set status = case when ${MOVES} then r.next_status else d.status end,
        next_attempt_at = case when ${MOVES} then r.next_attempt_at else d.next_attempt_at end,
        delivered_at = case when r.succeeded then ${at.toISOString()}::timestamptz else d.delivered_at end,
        last_error = r.error,
        attempt_count = d.attempt_count + r.counted,
        last_attempt_at = r.started_at,
        last_response_status = r.response_status,
        lease_until = null,
        lease_worker_id = null,
        requested_trigger = case when d.requested_at is not distinct from r.requested_at then null else d.requested_trigger end,
        requested_at = case when d.requested_at is not distinct from r.requested_at then null else d.requested_at end,
        due_at = case
          when d.requested_at is distinct from r.requested_at then ${at.toISOString()}::timestamptz
          when (case when ${MOVES} then r.next_status else d.status end) = any(${array(RETRYING)}::text[])
            then (case when ${MOVES} then r.next_attempt_at else d.next_attempt_at end)
          else null
        end,
        updated_at = ${at.toISOString()}::timestamptz
      from r
      where d.id = any(${deliveryIds}::text[]) and d.id = r.delivery_id and d.lease_worker_id = ${dispatcherId} and d.lease_until = r.lease_until
    ), s as (
      select * from unnest(
        ${array(streaks.map(([id]) => id))}::text[],
        ${array(streaks.map(([, s]) => String(s.hadSuccess)))}::bool[],
        ${array(streaks.map(([, s]) => s.failingFrom?.toISOString() ?? null))}::timestamptz[],
        ${array(streaks.map(([, s]) => String(s.gone)))}::bool[]
      ) as s(endpoint_id, had_success, failing_from, gone)
    ), streak as (
      select e.id, s.gone, e.failing_since as was,
        case when s.had_success then s.failing_from else coalesce(e.failing_since, s.failing_from) end as failing_since
      from webhook_endpoints e join s on s.endpoint_id = e.id
      where e.enabled
    ), streaks as (
      update webhook_endpoints e set failing_since = streak.failing_since, updated_at = ${at.toISOString()}::timestamptz
      from streak where e.id = streak.id and streak.failing_since is distinct from streak.was
    )
    select id, gone from streak where gone or failing_since <= ${cutoff.toISOString()}::timestamptz`);
    for (const { id, gone } of toDisable.rows) await disableEndpoint(tx, id, gone ? 'gone' : 'failing');
  });
  const retries = states.flatMap((state) => (state.status === 'failed' && state.nextAttemptAt ? [state.nextAttemptAt.getTime()] : []));
  return retries.length > 0 ? { earliestRetryAt: new Date(Math.min(...retries)) } : {};
}

/**
 * Turns the endpoint off, stops its scheduled retries (they become dead, recoverable once it
 * is enabled again) and tells the seller by email; the console shows `disabledReason`.
 */
async function disableEndpoint(tx: Db, endpointId: string, reason: 'gone' | 'failing') {
  const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for('update');
  if (!endpoint?.enabled) return;
  const at = now();
  await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: at, failingSince: endpoint.failingSince ?? at, updatedAt: at })
    .where(eq(webhookEndpoints.id, endpoint.id));
  await tx
    .update(webhookDeliveries)
    .set({
      status: 'dead',
      nextAttemptAt: null,
      dueAt: sql`case when ${webhookDeliveries.requestedTrigger} is null then null else ${webhookDeliveries.dueAt} end`,
      updatedAt: at,
    })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), inArray(webhookDeliveries.status, webhookDeliveryStateMachine.sourcesOf('dead'))));
  log.warn({ endpointId: endpoint.id, merchantId: endpoint.merchantId, reason }, 'webhook endpoint disabled');
  const merchant = await findMerchantById(tx, endpoint.merchantId);
  if (!merchant) return;
  const why =
    reason === 'gone'
      ? 'it answered 410 Gone, which means the receiver no longer exists'
      : `every delivery attempt has failed since ${endpoint.failingSince?.toISOString() ?? at.toISOString()}`;
  await sendEmail(tx, {
    to: merchant.email,
    subject: `Webhook endpoint disabled: ${endpoint.url}`,
    text: [
      `Hello ${merchant.name},`,
      '',
      `We disabled your webhook endpoint ${endpoint.url} (${endpoint.id}) because ${why}.`,
      'No more events are sent to it until you enable it again in the console (Webhooks) or with',
      `PUT /api/WebhookEndpoint/${endpoint.id} {"enabled": true}. After that, POST`,
      `/api/WebhookEndpoint/${endpoint.id}/RetryFailedDeliveries resends what it missed.`,
    ].join('\n'),
    category: 'webhook.endpoint_disabled',
  });
}
