import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events/record-event';
import { sampleEventObject } from '@/lib/webhooks/samples';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((request) => (request.path === '/dead' ? { hang: true } : { status: 200 }));
});
afterAll(() => receiver.close());

const DEAD_BACKLOG = 1000;
const HEALTHY_EVENTS = 200;

describe('a dead endpoint does not hold up the others', () => {
  it('delivers everything to a healthy endpoint while a dead one with 1,000 pending deliveries is still timing out', async () => {
    const { api, merchant, key } = await newMerchant();
    const dead = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/dead`, events: ['customer.created'] });
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < DEAD_BACKLOG; i++)
        await recordEvent(tx, { merchantId: merchant.id, type: 'customer.created', object: sampleEventObject('customer.created', `cus_dead_${i}`) });
    });
    // The dead endpoint's oldest deliveries are now claimed and hanging; the healthy endpoint's
    // events come after all of them in the queue.
    await receiver.waitFor((requests) => requests.some((r) => r.path === '/dead'));
    const healthy = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/healthy`, events: ['product.created'] });
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < HEALTHY_EVENTS; i++)
        await recordEvent(tx, { merchantId: merchant.id, type: 'product.created', object: sampleEventObject('product.created', `prod_healthy_${i}`) });
    });

    // Delivery is at least once: on a loaded machine a lease can run out and an event arrive twice, so count events, not requests.
    const healthyEvents = (requests: typeof receiver.received) =>
      new Set(requests.filter((r) => r.path === '/healthy').map((r) => r.headers['x-service-event-id']));
    await receiver.waitFor((requests) => healthyEvents(requests).size >= HEALTHY_EVENTS, 60_000);
    const [untried] = await getDb()
      .select({ value: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, dead.body.id), eq(webhookDeliveries.attemptCount, 0), eq(webhookDeliveries.status, 'pending')));
    // Still working through the dead endpoint's first attempts: the healthy one did not wait.
    expect(untried!.value).toBeGreaterThan(0);
    expect(healthyEvents(receiver.received).size).toBe(HEALTHY_EVENTS);
    // At most WEBHOOK_ENDPOINT_CONCURRENCY (default 100) attempts hang at the dead endpoint at once.
    const deadRequests = receiver.received.filter((r) => r.path === '/dead').length;
    expect(deadRequests).toBeLessThan(DEAD_BACKLOG);
    expect(healthy.status).toBe(201);

    // Stop the dead endpoint's attempts on the shared server.
    await call('DELETE', `/api/WebhookEndpoint/${dead.body.id}`, { key });
  }, 90_000);
});
