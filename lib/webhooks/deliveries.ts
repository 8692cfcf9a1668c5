import { and, asc, eq, gte, inArray, lte, not, sql } from 'drizzle-orm';
import { encodeTime } from 'ulid';
import type { Db } from '../db/client';
import { events, webhookAttempts, webhookDeliveries } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { now } from '../clock';
import { ApiError, notFound } from '../errors';
import { findWebhookEndpointRow } from './endpoints';
import { DELIVERIES_CHANNEL } from '../events/channel';
import { insertDeliveries } from '../events/delivery-rows';
import type { WebhookDeliveryStatus } from '../db/schema';
import { CURRENT_API_VERSION } from '../http/api-versions';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;
type EventRow = typeof events.$inferSelect;

/** The most deliveries one bulk recover requeues; call again for the rest. */
export const RECOVER_BATCH_LIMIT = 1000;

/**
 * The exact JSON every attempt of a delivery sends (DESIGN 4.8). Built from the stored event,
 * so it is byte-identical across attempts and processes.
 */
export function eventBody(row: Pick<EventRow, 'id' | 'type' | 'sequence' | 'createdAt' | 'data'>): string {
  return JSON.stringify(toWebhookEventResponse(row));
}

/** An event as deliveries and the event history show it: rendered in the current API version, which it names (docs/changelog.md). */
export function toWebhookEventResponse(row: Pick<EventRow, 'id' | 'type' | 'sequence' | 'createdAt' | 'data'>) {
  return {
    id: row.id,
    apiVersion: CURRENT_API_VERSION,
    type: row.type,
    sequence: committedSequence(row),
    createdAt: row.createdAt.toISOString(),
    data: row.data,
  };
}

/** An event's `sequence`, which its transaction's commit sets (the `events_number` trigger): every event another transaction reads has one. */
function committedSequence(row: Pick<EventRow, 'id' | 'sequence'>): number {
  if (row.sequence === null) throw new Error(`Event ${row.id} was read before its transaction committed; it has no sequence yet.`);
  return row.sequence;
}

export function toWebhookDeliveryResponse(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    endpointId: row.endpointId,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastResponseStatus: row.lastResponseStatus,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toWebhookAttemptResponse(row: AttemptRow) {
  return {
    trigger: row.trigger,
    url: row.url,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    requestHeaders: row.requestHeaders,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    error: row.error,
    succeeded: row.succeeded,
  };
}

export async function listWebhookEvents(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt'; type?: string; test?: boolean }) {
  const isTest = sql`coalesce((${events.data}->>'test')::boolean, false)`;
  const page = await paginate(db, events, {
    ...query,
    scope: [eq(events.merchantId, merchantId)],
    where: [query.type ? eq(events.type, query.type) : undefined, query.test === undefined ? undefined : query.test ? isTest : not(isTest)],
    orderBy: [events.createdAt, events.id],
  });
  return mapPage(page, toWebhookEventResponse);
}

export async function getWebhookEvent(db: Db, merchantId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.merchantId, merchantId)));
  if (!row) throw notFound('event', eventId);
  return toWebhookEventResponse(row);
}

export async function listWebhookDeliveries(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt'; status?: WebhookDeliveryStatus; endpointId?: string; eventId?: string; type?: string },
) {
  const page = await paginate(db, webhookDeliveries, {
    ...query,
    scope: [eq(webhookDeliveries.merchantId, merchantId)],
    where: [
      query.status ? eq(webhookDeliveries.status, query.status) : undefined,
      query.endpointId ? eq(webhookDeliveries.endpointId, query.endpointId) : undefined,
      query.eventId ? eq(webhookDeliveries.eventId, query.eventId) : undefined,
      query.type ? eq(webhookDeliveries.eventType, query.type) : undefined,
    ],
    orderBy: [webhookDeliveries.createdAt, webhookDeliveries.id],
  });
  return mapPage(page, toWebhookDeliveryResponse);
}

async function findDeliveryRow(db: Db, merchantId: string, deliveryId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.merchantId, merchantId)));
  if (!row) throw notFound('webhook delivery', deliveryId);
  return row;
}

export async function getWebhookDelivery(db: Db, merchantId: string, deliveryId: string) {
  const row = await findDeliveryRow(db, merchantId, deliveryId);
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, row.id))
    .orderBy(asc(webhookAttempts.startedAt), asc(webhookAttempts.id));
  return { ...toWebhookDeliveryResponse(row), attempts: attempts.map(toWebhookAttemptResponse) };
}

/**
 * Asks the dispatchers to send `ids` again now, whatever their state, as `trigger`: the request
 * is data on the delivery row (docs/webhooks.md), so asking twice before it is sent sends once.
 * A delivery in flight keeps its lease (never two attempts at once); it comes due again when
 * that attempt is recorded. The automatic schedule (`next_attempt_at`) is left as it is.
 */
async function requestAttempts(tx: Db, ids: string[], trigger: 'manual' | 'recover') {
  const at = now().toISOString();
  await tx.execute(sql`
    with requested as (
      update webhook_deliveries
      set requested_trigger = ${trigger}, requested_at = ${at}::timestamptz,
        due_at = case when lease_until > ${at}::timestamptz then due_at else least(coalesce(due_at, ${at}::timestamptz), ${at}::timestamptz) end
      where id = any(${sql.param(ids)}::text[])
      returning 1
    )
    select pg_notify(${DELIVERIES_CHANNEL}, '') from requested limit 1`);
}

/** Sends one delivery again now, whatever its state; its automatic schedule is left as it is. */
export async function retryWebhookDelivery(tx: Db, merchantId: string, deliveryId: string) {
  const row = await findDeliveryRow(tx, merchantId, deliveryId);
  await requestAttempts(tx, [row.id], 'manual');
  return toWebhookDeliveryResponse(row);
}

/**
 * Recovers an endpoint's window [since, until]: resends every failed or dead delivery created in
 * it, and delivers the events of it the endpoint subscribes to but never got (raised while it
 * was disabled, when no delivery is written), oldest first, at most RECOVER_BATCH_LIMIT of each
 * per call (`hasMore` says to call again with a later `since`). An event's window time is when it
 * was recorded (its id's time), also for events dated at a test clock's time.
 */
export async function retryFailedWebhookDeliveries(tx: Db, merchantId: string, endpointId: string, window: { since: Date; until?: Date }) {
  const endpoint = await findWebhookEndpointRow(tx, merchantId, endpointId);
  if (!endpoint.enabled) {
    throw new ApiError('INVALID_STATE', 'The endpoint is disabled; enable it (PUT enabled: true) before recovering its deliveries.');
  }
  const rows = await tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        inArray(webhookDeliveries.status, ['failed', 'dead']),
        gte(webhookDeliveries.createdAt, window.since),
        lte(webhookDeliveries.createdAt, window.until ?? now()),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .limit(RECOVER_BATCH_LIMIT + 1);
  const batch = rows.slice(0, RECOVER_BATCH_LIMIT);
  if (batch.length > 0)
    await requestAttempts(
      tx,
      batch.map((row) => row.id),
      'recover',
    );
  const missed = await deliverMissedEvents(tx, endpoint, window.since, window.until ?? now());
  return {
    endpointId: endpoint.id,
    requeued: batch.length,
    missedEventsDelivered: missed.ids.length,
    hasMore: rows.length > RECOVER_BATCH_LIMIT || missed.hasMore,
    deliveryIds: [...batch.map((row) => row.id), ...missed.ids],
  };
}

/** Deliveries for the window's events the endpoint subscribes to and has none of (due now). */
async function deliverMissedEvents(tx: Db, endpoint: { id: string; merchantId: string; events: string[]; createdAt: Date }, since: Date, until: Date) {
  // Event ids are ULIDs: their first ten characters after the prefix encode when they were recorded.
  const from = `evt_${encodeTime(Math.max(since.getTime(), endpoint.createdAt.getTime()), 10)}`;
  const to = `evt_${encodeTime(until.getTime(), 10)}~`;
  const result = await tx.execute<{ id: string; matched: number }>(sql`
    with missed as (
      select e.id, e.type from events e
      where e.merchant_id = ${endpoint.merchantId} and e.id >= ${from} and e.id <= ${to}
        and (${endpoint.events.includes('*')} or e.type = any(${sql.param(endpoint.events)}::text[]))
        and not exists (select 1 from webhook_deliveries d where d.endpoint_id = ${endpoint.id} and d.event_id = e.id)
      order by e.id
      limit ${RECOVER_BATCH_LIMIT + 1}
    ), inserted as (
      ${insertDeliveries(
        sql`select ${endpoint.merchantId} as merchant_id, ${endpoint.id} as endpoint_id, m.id as event_id, m.type as event_type
          from (select * from missed order by id limit ${RECOVER_BATCH_LIMIT}) m`,
        now(),
      )}
      returning id
    ), notified as (select pg_notify(${DELIVERIES_CHANNEL}, '') from inserted limit 1)
    select id, (select count(*) from missed)::int as matched from inserted left join notified on true`);
  const rows = result.rows;
  return { ids: rows.map((row) => row.id), hasMore: (rows[0]?.matched ?? 0) > RECOVER_BATCH_LIMIT };
}
