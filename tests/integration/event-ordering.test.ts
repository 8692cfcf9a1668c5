import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik } from '../helpers/payments';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

/** docs/webhooks.md, "Ordering": a per-seller `sequence`, and one change's events recorded and delivered in order. */

let receiver: Receiver;
/** Requests being answered right now, per path: a change's events must never overlap at one endpoint. */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const path = request.path;
    const answering = (open.get(path) ?? 0) + 1;
    open.set(path, answering);
    mostOpen.set(path, Math.max(mostOpen.get(path) ?? 0, answering));
    // Answered a little later, so attempts sent side by side would overlap here.
    setTimeout(() => open.set(path, (open.get(path) ?? 1) - 1), 80);
    return { status: 200, delayMs: 80 };
  });
});
afterAll(() => receiver.close());

async function sequencesOf(merchantId: string) {
  return getDb().select({ type: events.type, sequence: events.sequence }).from(events).where(eq(events.merchantId, merchantId)).orderBy(asc(events.sequence));
}

describe('event ordering', () => {
  it('numbers a seller’s events 1, 2, 3 … without sharing one, also under 30 concurrent writes', async () => {
    const { api, merchant } = await newMerchant();
    const other = await newMerchant();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? other.api : api).post('/api/Product', { name: `Concurrent ${i}` })));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    for (const seller of [merchant.id, other.merchant.id]) {
      const sequences = (await sequencesOf(seller)).map((event) => event.sequence);
      expect(sequences.length).toBeGreaterThanOrEqual(10);
      // No transaction rolled back here, so the counter left no gaps either.
      expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    }
    const listed = await api.get('/api/WebhookEvent?pageSize=100');
    expect(listed.body.data.length).toBeGreaterThanOrEqual(20);
    expect(listed.body.data.every((event: { sequence: unknown }) => Number.isInteger(event.sequence))).toBe(true);
  });

  it('records one checkout’s events in their causal order and delivers them to a healthy endpoint in that order, one at a time', async () => {
    const { api, merchant } = await newMerchant();
    const path = `/ordered-${merchant.id}`;
    const oneCheckout = ['billing_record.created', 'payment.succeeded', 'billing_record.paid', 'payment_link.completed'];
    const endpoint = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}${path}`, events: oneCheckout });
    expect(endpoint.status).toBe(201);
    const link = await adHocLink(api);
    const delivered = () => receiver.received.filter((request) => request.path === path);
    const rounds = 3;
    for (let round = 1; round <= rounds; round++) {
      const answer = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: `o${round}@example.com`, tokenRef: 'tok_visa' }, ik());
      expect(answer.status, answer.text).toBe(201);
      // One change at a time: what is ordered is a change's own events.
      await receiver.waitFor(() => delivered().length === round * oneCheckout.length);
    }

    const recorded = (await sequencesOf(merchant.id)).filter((event) => oneCheckout.includes(event.type));
    expect(recorded.map((event) => event.type)).toEqual(Array.from({ length: rounds }, () => oneCheckout).flat());
    const bodies = delivered().map((request) => JSON.parse(request.body) as { type: string; sequence: number });
    expect(bodies.map((body) => body.sequence)).toEqual(recorded.map((event) => event.sequence));
    expect(bodies.map((body) => body.type)).toEqual(recorded.map((event) => event.type));
    expect(mostOpen.get(path)).toBe(1);
  });
});
