import { sql, type SQL } from 'drizzle-orm';
import { encodeTime } from 'ulid';
import { ID_PREFIXES } from '../ids';
import { webhookDeliveryStateMachine } from './webhook-delivery-states';

/**
 * The one statement that makes webhook deliveries, wherever they come from (an event's
 * subscribed endpoints, an endpoint's missed events, a test event): one row per row of
 * `source`, which names `merchant_id`, `endpoint_id`, `event_id` and `event_type`. Each starts
 * `pending` and due at `at`, with a ULID-like id made in the statement (the time `at`, then
 * random Crockford digits: hex ⊂ base32), so thousands are inserted in one round trip.
 * Append `returning …` to read them; the caller notifies the dispatchers (DELIVERIES_CHANNEL).
 */
export function insertDeliveries(source: SQL, at: Date): SQL {
  const time = at.toISOString();
  const idPrefix = `${ID_PREFIXES.delivery}_${encodeTime(at.getTime(), 10)}`;
  return sql`insert into webhook_deliveries (id, merchant_id, endpoint_id, event_id, event_type, status, next_attempt_at, due_at, created_at, updated_at)
    select ${idPrefix} || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)), source.merchant_id, source.endpoint_id, source.event_id, source.event_type,
      ${webhookDeliveryStateMachine.start('pending')}::text, ${time}::timestamptz, ${time}::timestamptz, ${time}::timestamptz, ${time}::timestamptz
    from (${source}) source`;
}
