import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { subscriptions } from '@/lib/db/schema';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { processSubscription } from '@/lib/subscriptions/renewals';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';
import { meteredPrice, periodRecord, recordUsage, subscriptionRecords, usageLines } from '../helpers/metered';
import { advance, CARDS, clockFor, customerWithCard, paymentCount, recurringPrice, subscribe } from '../helpers/subscriptions';

// Issue 31, the billing engine: the grace window, late usage, the last usage of an ended
// subscription, over HTTP on test clocks (USAGE_GRACE_PERIOD is its default, 1 h).

async function meteredSubscription(start: string, fields: Record<string, unknown> = { amount: 5 }, subscribeFields: Record<string, unknown> = {}) {
  const { api, merchant } = await newMerchant();
  const price = await meteredPrice(api, fields);
  const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
  const clock = await clockFor(api, customerId, start);
  const created = await subscribe(api, { customerId, priceId: price.id, paymentMethodId, ...subscribeFields });
  expect(created.status, created.text).toBe(201);
  return { api, merchant, price, customerId, paymentMethodId, clock, sub: created.body as { id: string; version: string } };
}

describe('the grace window', () => {
  it('moves the period at the boundary, and bills usage that arrives within the window in its own period once the window has passed', async () => {
    const { api, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100 });

    await advance(api, clock, '2026-01-01T00:30:00.000Z');
    await advance(api, clock, '2026-02-01T00:30:00.000Z');
    // The period moved at the boundary (usage without a timestamp now meters the new one); nothing is billed yet.
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active', currentPeriodIndex: 1 });
    expect((await subscriptionRecords(api, sub.id)).map((r) => r.periodIndex)).toEqual([0]);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 50, timestamp: '2026-01-31T23:59:00.000Z' });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 7 });
    const upcoming = (await api.get(`/api/Subscription/${sub.id}/UpcomingInvoice`)).body;
    expect(upcoming).toMatchObject({ at: '2026-02-01T01:00:00.000Z', periodIndex: 1, total: 750 });

    await advance(api, clock, '2026-02-01T00:59:59.000Z');
    expect((await subscriptionRecords(api, sub.id)).map((r) => r.periodIndex)).toEqual([0]);
    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    const record = await periodRecord(api, sub.id, 1);
    expect(record.lineItems).toEqual(upcoming.lineItems);
    expect(record).toMatchObject({ status: 'paid', total: 750, amountPaid: 750 });
    expect(usageLines(record)).toEqual([
      expect.objectContaining({ quantity: 150, amount: 750, periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2026-02-01T00:00:00.000Z' }),
    ]);
  });

  it('charges a subscription with no metered items at the boundary, as before', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    await advance(api, clock, '2026-02-01T00:00:00.000Z');
    expect(await periodRecord(api, sub.id, 1)).toMatchObject({ status: 'paid', total: 1500 });
  });

  it('leaves out usage reversed within the window, before its period is finalized', async () => {
    const { api, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100 });
    const mistake = await recordUsage(api, { customerId, feature: 'api_calls', quantity: 900, timestamp: '2026-01-20T00:00:00.000Z' });
    await advance(api, clock, '2026-02-01T00:20:00.000Z');
    expect((await api.post(`/api/Usage/${mistake.id}/Reverse`, undefined, ik())).status).toBe(200);
    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    expect(usageLines(await periodRecord(api, sub.id, 1))).toEqual([expect.objectContaining({ quantity: 100, amount: 500 })]);
  });
});

describe('late usage, after the window', () => {
  it('goes on the next record as a line naming its own period and billing only the difference; usage reversed after billing is never a negative line', async () => {
    const { api, customerId, clock, sub, price } = await meteredSubscription('2026-01-01T00:00:00.000Z', {
      tiersMode: 'graduated',
      tiers: [
        { upTo: 100, unitAmount: 0 },
        { upTo: null, unitAmount: 2 },
      ],
    });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 150 });
    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    expect(usageLines(await periodRecord(api, sub.id, 1))).toEqual([expect.objectContaining({ quantity: 150, amount: 100 })]);

    // January is finalized: 30 more units timestamped in it are late; 10 units of February are not.
    const late = await recordUsage(api, { customerId, feature: 'api_calls', quantity: 30, timestamp: '2026-01-20T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 10, timestamp: '2026-02-10T00:00:00.000Z' });
    await advance(api, clock, '2026-03-01T01:00:00.000Z');
    const march = await periodRecord(api, sub.id, 2);
    expect(usageLines(march)).toEqual([
      expect.objectContaining({ priceId: price.id, quantity: 10, amount: 0, periodStart: '2026-02-01T00:00:00.000Z', periodEnd: '2026-03-01T00:00:00.000Z' }),
      // 180 units cost 160, 100 of which January's record billed: 60; no tier breakdown on a difference.
      {
        kind: 'usage',
        description: 'API — api_calls usage',
        priceId: price.id,
        quantity: 30,
        unitAmount: 0,
        amount: 60,
        feature: 'api_calls',
        periodStart: '2026-01-01T00:00:00.000Z',
        periodEnd: '2026-02-01T00:00:00.000Z',
      },
    ]);
    expect(march).toMatchObject({ status: 'paid', total: 60 });

    // Reversed after it was billed: not refunded by a line (the seller refunds or credits); more late usage
    // that still leaves January under what was billed adds nothing.
    expect((await api.post(`/api/Usage/${late.id}/Reverse`, undefined, ik())).status).toBe(200);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 20, timestamp: '2026-01-21T00:00:00.000Z' });
    await advance(api, clock, '2026-04-01T01:00:00.000Z');
    const april = await periodRecord(api, sub.id, 3);
    expect(usageLines(april)).toEqual([expect.objectContaining({ quantity: 0, amount: 0, periodStart: '2026-03-01T00:00:00.000Z' })]);
    expect(april.lineItems.every((line) => line.amount >= 0)).toBe(true);
  });
});

describe('usage while collection is paused', () => {
  it('is not billed, and neither is late usage of a period renewed while paused', async () => {
    const { api, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    const command = (body: Record<string, unknown>) => api.post(`/api/Subscription/${sub.id}/Command`, body, ik());
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100, timestamp: '2026-01-05T00:00:00.000Z' });
    await advance(api, clock, '2026-01-10T00:00:00.000Z');
    expect((await command({ type: 'Pause' })).status).toBe(200);
    await advance(api, clock, '2026-02-01T02:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ currentPeriodIndex: 1 });
    expect(await subscriptionRecords(api, sub.id)).toHaveLength(1);
    expect((await command({ type: 'Resume' })).status).toBe(200);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 30, timestamp: '2026-01-20T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 10, timestamp: '2026-02-10T00:00:00.000Z' });

    await advance(api, clock, '2026-03-01T01:00:00.000Z');
    const march = await periodRecord(api, sub.id, 2);
    expect(usageLines(march)).toEqual([expect.objectContaining({ quantity: 10, amount: 50, periodStart: '2026-02-01T00:00:00.000Z' })]);
    expect(march.total).toBe(50);
  });
});

describe('the last usage of a subscription that ends', () => {
  it('is billed after the period end + the window when canceled at its period end, late usage within the window included', async () => {
    const { api, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 200 });
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: false }, ik())).status).toBe(200);
    await advance(api, clock, '2026-02-01T00:10:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'ended', endedAt: '2026-02-01T00:00:00.000Z' });
    expect(await subscriptionRecords(api, sub.id)).toHaveLength(1);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 20, timestamp: '2026-01-31T12:00:00.000Z' });

    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    const detail = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(detail.latestBillingRecord).toMatchObject({ kind: 'usage', status: 'paid', amount: 1100, periodIndex: 0 });
    const [, final] = await subscriptionRecords(api, sub.id);
    expect(final!.lineItems).toEqual([
      expect.objectContaining({ kind: 'usage', quantity: 220, amount: 1100, periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2026-02-01T00:00:00.000Z' }),
    ]);
    expect((await api.get(`/api/Payment/${final!.paymentId}`)).body).toMatchObject({ status: 'succeeded', amount: 1100 });
    await advance(api, clock, '2026-03-01T02:00:00.000Z');
    expect(await subscriptionRecords(api, sub.id)).toHaveLength(2);
  });

  it('bills the usage up to the moment it was canceled at once; a decline leaves its record uncollectible', async () => {
    const { api, merchant, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    const declining = await new SandboxProcessor().tokenizeCard({ number: CARDS.declined, expMonth: 12, expYear: 2040, cvc: '123' });
    const method = await getDb().transaction((tx) => savePaymentMethod(tx, merchant.id, customerId, declining));
    const changed = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePaymentMethod', paymentMethodId: method.id }, ik());
    expect(changed.status, changed.text).toBe(200);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 40, timestamp: '2026-01-10T00:00:00.000Z' });
    await advance(api, clock, '2026-01-15T00:00:00.000Z');
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik())).status).toBe(200);
    // After the end: not this subscription's any more.
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 1000, timestamp: '2026-01-15T00:30:00.000Z' });

    await advance(api, clock, '2026-01-15T01:00:00.000Z');
    const [, final] = await subscriptionRecords(api, sub.id);
    expect(final).toMatchObject({ status: 'uncollectible', total: 200 });
    expect(usageLines(final!)).toEqual([
      expect.objectContaining({ quantity: 40, amount: 200, periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2026-01-15T00:00:00.000Z' }),
    ]);
    expect((await api.get(`/api/Payment/${final!.paymentId}`)).body).toMatchObject({ status: 'failed', amount: 200 });
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.status).toBe('ended');
  });

  it('bills the ended period of a renewal drafted within the window, not its advance, when canceled at once meanwhile', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000, name: 'Pro' });
    const calls = await meteredPrice(api, { productId: licensed.productId, amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items: [{ priceId: calls.id }] })).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100 });
    await advance(api, clock, '2026-02-01T00:30:00.000Z');
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik())).status).toBe(200);

    await advance(api, clock, '2026-02-01T01:30:00.000Z');
    const records = await subscriptionRecords(api, sub.id);
    expect(records.map((r) => r.periodIndex)).toEqual([0, 0]);
    expect(records[1]!.lineItems).toEqual([
      expect.objectContaining({ kind: 'usage', quantity: 100, amount: 500, periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2026-02-01T00:00:00.000Z' }),
    ]);
    expect(records[1]).toMatchObject({ status: 'paid', total: 500 });
  });

  it('never charges a customer archived since the subscription ended', async () => {
    const { api, merchant, customerId, clock, sub } = await meteredSubscription('2026-01-01T00:00:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 40 });
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik())).status).toBe(200);
    const archived = await api.put(`/api/Customer/${customerId}`, { status: 'archived' });
    expect(archived.status, archived.text).toBe(200);
    const before = await paymentCount(merchant.id);
    await advance(api, clock, '2026-01-01T02:00:00.000Z');
    expect(await paymentCount(merchant.id)).toBe(before);
    expect(await subscriptionRecords(api, sub.id)).toHaveLength(1);
    const [row] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row).toMatchObject({ usageBillingDueAt: null, nextActionAt: null });
    expect(await processSubscription(getDb(), sub.id)).toBe(0);
  });
});
