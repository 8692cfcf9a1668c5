import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { events, webhookDeliveries } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError } from '../errors';
import type { EventType } from '../events/types';
import { findWebhookEndpointRow } from './endpoints';
import { DELIVERIES_CHANNEL } from '../events/channel';
import { toWebhookDeliveryResponse } from './deliveries';
import { EVENT_SAMPLES } from './samples';
import { insertDeliveries } from '../events/delivery-rows';

/**
 * POST /api/WebhookEndpoint/{id}/Test: an event of the chosen type with its sample data (marked
 * `data.test: true`) delivered to this endpoint only, as a normal delivery: signed, retried on
 * failure, listed in the event and delivery history. The endpoint need not subscribe to the type.
 */
export async function sendTestWebhookEvent(tx: Db, merchantId: string, endpointId: string, body: { type: EventType }) {
  const endpoint = await findWebhookEndpointRow(tx, merchantId, endpointId);
  if (!endpoint.enabled) throw new ApiError('INVALID_STATE', 'The endpoint is disabled; enable it (PUT enabled: true) before sending it a test event.');
  const at = now();
  const [event] = await tx
    .insert(events)
    .values({ id: newId('event'), merchantId, type: body.type, data: { ...EVENT_SAMPLES[body.type].data, test: true }, createdAt: at })
    .returning();
  const inserted = await tx.execute<{ id: string }>(
    sql`${insertDeliveries(sql`select ${merchantId} as merchant_id, ${endpoint.id} as endpoint_id, ${event!.id} as event_id, ${body.type} as event_type`, at)} returning id`,
  );
  const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, inserted.rows[0]!.id));
  await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
  return toWebhookDeliveryResponse(delivery!);
}
