import type { Db } from '../db/client';
import { events } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import type { EventType } from './types';
import { createDeliveriesForEvent } from '../webhooks/deliveries';

export interface RecordedEvent {
  id: string;
  type: EventType;
  createdAt: Date;
}

/**
 * Writes an event in the caller's transaction, so the event exists exactly when the change
 * that caused it commits. `object` is the API representation of the resource at that moment.
 * The same transaction writes one webhook delivery per subscribed, enabled endpoint and queues
 * its first attempt (DESIGN 4.8): a crash at any moment loses nothing.
 */
export async function recordEvent(
  tx: Db,
  input: { merchantId: string; type: EventType; object: object },
): Promise<RecordedEvent> {
  const event = { id: newId('event'), type: input.type, createdAt: now() };
  await tx.insert(events).values({
    id: event.id,
    merchantId: input.merchantId,
    type: event.type,
    data: { object: JSON.parse(JSON.stringify(input.object)) as Record<string, unknown> },
    createdAt: event.createdAt,
  });
  await createDeliveriesForEvent(tx, { ...event, merchantId: input.merchantId });
  return event;
}
