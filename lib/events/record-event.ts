import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { newId } from '../ids';
import { now } from '../clock';
import type { EventObject, EventType } from './types';
import { DELIVERIES_CHANNEL } from './channel';
import { insertDeliveries } from './delivery-rows';

export interface RecordedEvent {
  id: string;
  type: EventType;
  createdAt: Date;
}

/** One event to record, typed per type: its `object` is what the event catalog documents for `type`. */
export type EventInput = {
  [T in EventType]: {
    merchantId: string;
    type: T;
    object: EventObject<T>;
    /** An `*.updated` event's changed fields with the values they had before (as Stripe sends them). */
    previousAttributes?: Record<string, unknown>;
  };
}[EventType];

/** How a domain function records its events (recordEvent, or a recorder of its own). */
export type EventRecorder = (tx: Db, input: EventInput) => Promise<RecordedEvent>;

/**
 * Writes an event in the caller's transaction, so the event exists exactly when the change
 * that caused it commits. `object` is the API representation of the resource at that moment.
 * The same statement writes one webhook delivery per subscribed, enabled endpoint, due at
 * once, and notifies the dispatchers (delivered at commit): the deliveries table is the queue
 * (DESIGN 4.8), so a crash at any moment loses nothing.
 */
export const recordEvent: EventRecorder = async (tx, input) => {
  const [event] = await recordEvents(tx, [input]);
  return event!;
};

const eventTime = new AsyncLocalStorage<Date>();

/**
 * Events recorded inside `work` say they happened at `at`: a sandbox test clock's time, so a
 * renewal on a clock reads as happening at its period end. Deliveries are still due at once.
 */
export function withEventTime<T>(at: Date | null, work: () => Promise<T>): Promise<T> {
  return at ? eventTime.run(at, work) : work();
}

function newEvent(input: EventInput): RecordedEvent {
  return { id: newId('event'), type: input.type, createdAt: eventTime.getStore() ?? now() };
}

/**
 * Several events (in this order) and their deliveries in one statement. `along` are the writes
 * of the change itself as CTE definitions (`name as (insert …)`), run in that same statement:
 * one round trip for the change and its events.
 */
export async function recordEvents(tx: Db, inputs: EventInput[], along?: SQL): Promise<RecordedEvent[]> {
  const recorded = inputs.map(newEvent);
  await writeEvents(tx, inputs, recorded, along);
  return recorded;
}

/**
 * The same, reading back what the change's writes report: `result` is a select list over the
 * CTEs of `along` (e.g. `(select count(*) from paid)::int as paid`). A CTE that only `select`s
 * (a job's `add_job` call) runs only when `result` reads it.
 */
export async function recordEventsAlong<T extends Record<string, unknown>>(tx: Db, inputs: EventInput[], along: SQL, result: SQL): Promise<T> {
  return (await writeEvents(tx, inputs, inputs.map(newEvent), along, result)) as T;
}

async function writeEvents(tx: Db, inputs: EventInput[], recorded: RecordedEvent[], along?: SQL, result?: SQL): Promise<Record<string, unknown> | undefined> {
  if (inputs.length === 0) {
    if (along) return (await tx.execute(sql`with ${along} select ${result ?? sql`1`}`)).rows[0];
    return undefined;
  }
  // When the deliveries are due: now, even for an event of a test clock's time.
  const recordedAt = now();
  // Each column is one array parameter (unnest): a batch of a thousand events is six
  // parameters, not six thousand.
  const columns = {
    id: [] as string[],
    merchantId: [] as string[],
    type: [] as string[],
    data: [] as string[],
    createdAt: [] as string[],
  };
  inputs.forEach((input, i) => {
    const event = recorded[i]!;
    columns.id.push(event.id);
    columns.merchantId.push(input.merchantId);
    columns.type.push(event.type);
    columns.data.push(
      JSON.stringify(input.previousAttributes ? { object: input.object, previousAttributes: input.previousAttributes } : { object: input.object }),
    );
    columns.createdAt.push(event.createdAt.toISOString());
  });
  const answer = await tx.execute(sql`
    with ${along ? sql`${along},` : sql``} given_events (id, merchant_id, type, data, created_at, ord) as (
      select * from unnest(${sql.param(columns.id)}::text[], ${sql.param(columns.merchantId)}::text[], ${sql.param(columns.type)}::text[],
        ${sql.param(columns.data)}::jsonb[], ${sql.param(columns.createdAt)}::timestamptz[]) with ordinality
    ), inserted as (
      -- In the order given: the events_number trigger numbers them in this order at commit.
      insert into events (id, merchant_id, type, data, created_at)
      select id, merchant_id, type, data, created_at from given_events order by ord
    ), deliveries as (
      ${insertDeliveries(
        sql`select ev.merchant_id, e.id as endpoint_id, ev.id as event_id, ev.type as event_type from given_events ev
          join webhook_endpoints e on e.merchant_id = ev.merchant_id and e.enabled and e.events && array[ev.type, '*']::text[]`,
        recordedAt,
      )}
      returning 1
    )
    ${
      result
        ? sql`select ${result}, (select count(*) from (select pg_notify(${DELIVERIES_CHANNEL}, '') from deliveries limit 1) notified) as notified`
        : sql`select pg_notify(${DELIVERIES_CHANNEL}, '') from deliveries limit 1`
    }`);
  return answer.rows[0];
}

/**
 * The fields of `after` whose value differs from `before`, with their earlier values: the
 * `previousAttributes` of an update. Bookkeeping fields (`updatedAt`, `version`) are left out.
 */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (key === 'updatedAt' || key === 'version') continue;
    if (JSON.stringify(value) !== JSON.stringify(after[key])) previous[key] = value;
  }
  return previous;
}

/**
 * An `*.updated` event for a change from `before` to `after` (API shapes), carrying the changed
 * fields' earlier values; a change that changed nothing records nothing.
 */
export async function recordUpdated<T extends EventType>(
  tx: Db,
  input: { merchantId: string; type: T; before: EventObject<T>; after: EventObject<T> },
): Promise<void> {
  const previousAttributes = changedAttributes(input.before as Record<string, unknown>, input.after as Record<string, unknown>);
  if (Object.keys(previousAttributes).length === 0) return;
  // TypeScript cannot relate a generic `T` to the union it indexes; the signature holds `after` to `type`'s object.
  await recordEvent(tx, { merchantId: input.merchantId, type: input.type, object: input.after, previousAttributes } as EventInput);
}
