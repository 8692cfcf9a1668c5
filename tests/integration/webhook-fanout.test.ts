import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events, webhookDeliveries, webhookAttempts } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events/record-event';
import { sampleEventObject } from '@/lib/webhooks/samples';
import { newMerchant } from '../helpers/merchants';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const EVENTS = 1000;
const ENDPOINTS = ['one', 'two', 'three'];

describe('fan-out at volume', () => {
  it('turns 1,000 events for 3 endpoints into 3,000 deliveries, each once in the history and at least once at the receiver', async () => {
    const { api, merchant } = await newMerchant();
    const endpointIds: Record<string, string> = {};
    for (const name of ENDPOINTS) {
      const created = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events: ['product.created'] });
      endpointIds[created.body.id] = name;
    }

    // Events are recorded the way every domain function records them: in its transaction.
    const eventIds: string[] = [];
    for (let batch = 0; batch < EVENTS / 100; batch++) {
      await getDb().transaction(async (tx) => {
        for (let i = 0; i < 100; i++) {
          const n = batch * 100 + i;
          const event = await recordEvent(tx, {
            merchantId: merchant.id,
            type: 'product.created',
            object: sampleEventObject('product.created', `prod_bulk_${n}`),
          });
          eventIds.push(event.id);
        }
      });
    }

    const delivered = () =>
      getDb()
        .select({ value: count() })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.merchantId, merchant.id), eq(webhookDeliveries.status, 'delivered')))
        .then(([row]) => row!.value);
    await eventually(async () => (await delivered()) === EVENTS * ENDPOINTS.length, 150_000, '3,000 delivered');

    // Exactly once in the history: one delivery per (event, endpoint), no more.
    const [history] = await getDb()
      .select({ total: count(), pairs: sql<number>`count(distinct (${webhookDeliveries.eventId}, ${webhookDeliveries.endpointId}))::int` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.merchantId, merchant.id));
    expect(history).toEqual({ total: 3000, pairs: 3000 });
    const [successes] = await getDb()
      .select({ value: count() })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookAttempts.deliveryId, webhookDeliveries.id))
      .where(and(eq(webhookDeliveries.merchantId, merchant.id), eq(webhookAttempts.succeeded, true)));
    expect(successes!.value).toBe(3000);

    // At least once at the receiver: every (endpoint, event) pair arrived.
    const seen = new Set(receiver.received.map((r) => `${r.path.slice(1)} ${r.headers['x-service-event-id']}`));
    for (const name of ENDPOINTS) for (const id of eventIds) expect(seen.has(`${name} ${id}`)).toBe(true);
    expect(seen.size).toBe(3000);
    expect(Object.keys(endpointIds)).toHaveLength(3);
  }, 200_000);

  it("writes the event and its deliveries (the queue) in the caller's transaction: a rollback leaves none of them", async () => {
    const { api, merchant } = await newMerchant();
    await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/rollback`, events: ['*'] });
    let eventId = '';
    let deliveryIds: string[] = [];
    await expect(
      getDb().transaction(async (tx) => {
        eventId = (
          await recordEvent(tx, { merchantId: merchant.id, type: 'customer.created', object: sampleEventObject('customer.created', 'cus_rolled_back') })
        ).id;
        deliveryIds = (await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).map((r) => r.id);
        const due = await tx.execute(sql`select count(*)::int as n from webhook_deliveries where id = ${deliveryIds[0]!} and due_at is not null`);
        expect(due.rows[0]).toEqual({ n: 1 });
        throw new Error('the state change fails');
      }),
    ).rejects.toThrow('the state change fails');
    expect(deliveryIds).toHaveLength(1);
    expect(await getDb().select().from(events).where(eq(events.id, eventId))).toHaveLength(0);
    expect(await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryIds[0]!))).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === '/rollback')).toHaveLength(0);
  });
});
