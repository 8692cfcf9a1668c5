import { sql } from 'drizzle-orm';
import { encodeTime } from 'ulid';
import type { Db } from '../db/client';
import { ID_PREFIXES, newId } from '../ids';
import { now } from '../clock';
import type { EventType } from './types';
import { DELIVERIES_CHANNEL } from '../webhooks/channel';

export interface RecordedEvent {
  id: string;
  type: EventType;
  createdAt: Date;
}

/**
 * Writes an event in the caller's transaction, so the event exists exactly when the change
 * that caused it commits. `object` is the API representation of the resource at that moment.
 * The same statement writes one webhook delivery per subscribed, enabled endpoint, due at
 * once, and notifies the dispatchers (delivered at commit): the deliveries table is the queue
 * (DESIGN 4.8), so a crash at any moment loses nothing.
 */
export async function recordEvent(
  tx: Db,
  input: { merchantId: string; type: EventType; object: object },
): Promise<RecordedEvent> {
  const event = { id: newId('event'), type: input.type, createdAt: now() };
  const at = event.createdAt.toISOString();
  // Delivery ids are ULIDs like newId's: the event's time, then random Crockford digits (hex ⊂ base32).
  const idPrefix = `${ID_PREFIXES.delivery}_${encodeTime(event.createdAt.getTime(), 10)}`;
  await tx.execute(sql`
    with event as (
      insert into events (id, merchant_id, type, data, created_at)
      values (${event.id}, ${input.merchantId}, ${event.type}, ${JSON.stringify({ object: input.object })}::jsonb, ${at}::timestamptz)
    ), deliveries as (
      insert into webhook_deliveries (id, merchant_id, endpoint_id, event_id, event_type, status, next_attempt_at, due_at, created_at, updated_at)
      select ${idPrefix} || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)), e.merchant_id, e.id, ${event.id}, ${event.type},
        'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from webhook_endpoints e
      where e.merchant_id = ${input.merchantId} and e.enabled and e.events && array[${event.type}, '*']::text[]
      returning 1
    )
    select pg_notify(${DELIVERIES_CHANNEL}, '') from deliveries limit 1`);
  return event;
}
