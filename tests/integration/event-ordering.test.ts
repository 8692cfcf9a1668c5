import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik } from '../helpers/payments';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

/** docs/webhooks.md, "Ordering": a per-seller `sequence`, and one change's events recorded and delivered in order. */

let receiver: Receiver;
/** When each event's request arrived and when its answer was sent, by event id. */
const answering = new Map<string, { from: number; to: number }>();
beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const eventId = String(request.headers['x-service-event-id']);
    const from = performance.now();
    answering.set(eventId, { from, to: Number.POSITIVE_INFINITY });
    // Answered a little later, so attempts sent side by side would overlap here. This timer is
    // set before the receiver's own, so it fires first: `to` is never after the answer left.
    setTimeout(() => answering.set(eventId, { from, to: performance.now() }), 80);
    return { status: 200, delayMs: 80 };
  });
});
afterAll(() => receiver.close());

async function sequencesOf(merchantId: string) {
  return getDb()
    .select({ id: events.id, type: events.type, sequence: events.sequence })
    .from(events)
    .where(eq(events.merchantId, merchantId))
    .orderBy(asc(events.sequence));
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

  // A checkout's phase 3 writes its events and a billing record whose foreign key share-locks the
  // customer at the end of the statement; a customer update locks the customer and then writes
  // its event. With the counter taken where events are written, these deadlocked (2 answers 500
  // within 40 rounds); it is taken at commit now.
  it('lets one seller’s concurrent changes of the same customer, promotion code and payments through without a deadlock', async () => {
    const { api } = await newMerchant();
    const deadlocks = async () =>
      Number((await getDb().execute<{ deadlocks: string }>(sql`select deadlocks from pg_stat_database where datname = current_database()`)).rows[0]!.deadlocks);
    const before = await deadlocks();
    const customer = await api.post('/api/Customer', { email: 'busy@example.com', name: 'Busy' }, ik());
    const coupon = await api.post('/api/Coupon', { percentOff: 10 });
    const code = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'BUSY10' });
    expect([customer.status, coupon.status, code.status]).toEqual([201, 201, 201]);
    const link = await adHocLink(api);
    const pay = () => api.post(`/api/PaymentLink/${link.id}/Complete`, { customerId: customer.body.id, tokenRef: 'tok_visa', promotionCode: 'BUSY10' }, ik());
    for (let round = 0; round < 15; round++) {
      const paid = await Promise.all(Array.from({ length: 4 }, pay));
      expect(paid.map((answer) => [answer.status, answer.body.discountAmount > 0])).toEqual(Array.from({ length: 4 }, () => [201, true]));
      const answers = await Promise.all([
        ...Array.from({ length: 16 }, pay),
        ...Array.from({ length: 16 }, (_, i) => api.put(`/api/Customer/${customer.body.id}`, { name: `Busy ${round}.${i}` })),
        ...paid.map((payment) => api.post(`/api/Payment/${payment.body.payment.id}/Refund`, { amount: 100 }, ik())),
        ...Array.from({ length: 4 }, (_, i) => api.put(`/api/PromotionCode/${code.body.id}`, { metadata: { round: `${round}.${i}` } })),
      ]);
      expect(answers.filter((answer) => answer.status >= 300).map((answer) => answer.text)).toEqual([]);
    }
    expect(await deadlocks()).toBe(before);
    // 15 rounds of 36 requests: about 15 s on an idle machine, much longer under the whole suite.
  }, 240_000);

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
    // What is ordered is one transaction's events (a checkout's phase 1 and phase 3 are two).
    const transactions = await getDb().execute<{ id: string; tx: string }>(
      sql`select id, xmin::text as tx from events where merchant_id = ${merchant.id} order by sequence`,
    );
    const changes = new Map<string, { id: string; tx: string }[]>();
    for (const row of transactions.rows.filter((row) => recorded.some((event) => event.id === row.id))) {
      changes.set(row.tx, [...(changes.get(row.tx) ?? []), row]);
    }
    expect(Math.max(...[...changes.values()].map((change) => change.length))).toBeGreaterThanOrEqual(3);
    const arrivals = delivered().map((request) => String(request.headers['x-service-event-id']));
    for (const change of changes.values()) {
      const ids = change.map((row) => row.id);
      expect(arrivals.filter((id) => ids.includes(id))).toEqual(ids);
      for (const [earlier, later] of ids.slice(1).map((id, i) => [ids[i]!, id] as const)) {
        expect(answering.get(earlier)!.to).toBeLessThanOrEqual(answering.get(later)!.from);
      }
    }
    const bodies = delivered().map((request) => JSON.parse(request.body) as { id: string; sequence: number });
    expect(bodies.every((body) => body.sequence === recorded.find((event) => event.id === body.id)?.sequence)).toBe(true);
  });
});
