import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments, sandboxProcessorOperations, testClocks } from '@/lib/db/schema';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { processSubscription } from '@/lib/subscriptions/renewals';
import { finishPendingPayment } from '@/lib/payments/recovery';
// Recovery finds each payment's kind of money move in the engine's registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

// Issue 31: usage billed in arrears at each period end, over HTTP on a test clock.

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

afterEach(() => {
  vi.restoreAllMocks();
});

async function meteredPrice(api: Api, fields: Record<string, unknown>) {
  const productId = (fields.productId as string | undefined) ?? (await api.post('/api/Product', { name: 'API' })).body.id;
  const answer = await api.post('/api/Price', {
    type: 'Recurring',
    currency: 'USD',
    interval: 'month',
    usageType: 'metered',
    feature: 'api_calls',
    ...fields,
    productId,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; productId: string };
}

async function recordUsage(api: Api, body: Record<string, unknown>) {
  const answer = await api.post('/api/Usage', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.usage as { id: string; timestamp: string; creditsUsed: number };
}

/** The subscription's billing record of `periodIndex`, with its payments. */
async function periodRecord(api: Api, subscriptionId: string, periodIndex: number) {
  const list = await api.get(`/api/BillingRecord?subscriptionId=${subscriptionId}&pageSize=100`);
  const record = list.body.data.find((r: { periodIndex: number }) => r.periodIndex === periodIndex);
  expect(record, `period ${periodIndex} of ${list.text}`).toBeDefined();
  return (await api.get(`/api/BillingRecord/${record.id}`)).body;
}

describe('usage billed in arrears', () => {
  it('bills 1,234 api_calls at 5 cents as a usage line of 6,170 and charges 6,170 when the clock passes the period end', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-10T12:00:00.000Z');
    const created = await subscribe(api, { customerId, priceId: price.id, paymentMethodId });
    expect(created.status, created.text).toBe(201);
    const sub = created.body;

    // Usage without a timestamp is timestamped on the customer's test clock.
    const first = await recordUsage(api, { customerId, feature: 'api_calls', quantity: 1000, id: 'batch-1' });
    expect(first.timestamp).toBe('2026-01-10T12:00:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 234, id: 'batch-2', timestamp: '2026-02-10T11:59:59.000Z' });
    // Usage of another feature, and usage after the period, are not on this line.
    await recordUsage(api, { customerId, feature: 'messages', quantity: 50 });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 999, timestamp: '2026-02-10T12:00:00.000Z' });

    // What the renewal will bill, asked before the period ends: the same lines the record gets.
    const upcoming = await api.get(`/api/Subscription/${sub.id}/UpcomingInvoice`);
    expect(upcoming.status, upcoming.text).toBe(200);
    expect(upcoming.body).toMatchObject({ at: '2026-02-10T12:00:00.000Z', periodIndex: 1, subtotal: 6170, total: 6170 });

    // The period's usage is billed once its grace window (USAGE_GRACE_PERIOD, 1 h) has passed.
    await advance(api, clock, '2026-02-10T13:00:00.000Z');
    const record = await periodRecord(api, sub.id, 1);
    expect(upcoming.body.lineItems).toEqual(record.lineItems);
    expect(record).toMatchObject({ status: 'paid', currency: 'USD', subtotal: 6170, total: 6170, amountPaid: 6170, periodStart: '2026-02-10T12:00:00.000Z' });
    expect(record.lineItems).toEqual([
      { kind: 'plan', description: 'API — subscription period 2', priceId: price.id, quantity: 1, unitAmount: 0, amount: 0 },
      {
        kind: 'usage',
        description: 'API — api_calls usage',
        priceId: price.id,
        quantity: 1234,
        unitAmount: 5,
        amount: 6170,
        feature: 'api_calls',
        periodStart: '2026-01-10T12:00:00.000Z',
        periodEnd: '2026-02-10T12:00:00.000Z',
      },
    ]);
    const payment = (await api.get(`/api/Payment/${record.paymentId}`)).body;
    expect(payment).toMatchObject({ status: 'succeeded', amount: 6170, currency: 'USD' });
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active', currentPeriodIndex: 1 });
  });

  it('bills a graduated price (first 1,000 free, then 2 cents) for 1,234 units: 468, with the tiers, after the licensed price in advance', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000, name: 'Pro' });
    const graduated = await meteredPrice(api, {
      productId: licensed.productId,
      tiersMode: 'graduated',
      tiers: [
        { upTo: 1000, unitAmount: 0 },
        { upTo: null, unitAmount: 2 },
      ],
    });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-03-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items: [{ priceId: graduated.id }] })).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 1234 });

    await advance(api, clock, '2026-04-01T01:00:00.000Z');
    const record = await periodRecord(api, sub.id, 1);
    expect(record).toMatchObject({ status: 'paid', subtotal: 2468, total: 2468 });
    const usage = record.lineItems.find((line: { kind: string }) => line.kind === 'usage');
    expect(usage).toMatchObject({ quantity: 1234, amount: 468, unitAmount: 0 });
    expect(usage.tiers).toEqual([
      { tier: 1, upTo: 1000, quantity: 1000, unitAmountDecimal: '0', flatAmount: 0, amountDecimal: '0' },
      { tier: 2, upTo: null, quantity: 234, unitAmountDecimal: '2', flatAmount: 0, amountDecimal: '468' },
    ]);
    expect((await api.get(`/api/Payment/${record.paymentId}`)).body).toMatchObject({ status: 'succeeded', amount: 2468 });
  });

  it('lets credits pay usage before the card, earliest expiry first, shown as a credit line', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    const grant = async (amount: number, expiresAt?: string) =>
      (await api.post(`/api/Customer/${customerId}/CreditGrant`, { feature: 'api_calls', amount, reason: 'pack', ...(expiresAt ? { expiresAt } : {}) }, ik()))
        .body.id as string;
    const lasting = await grant(200);
    const late = await grant(100, '2026-06-01T00:00:00.000Z');
    await grant(50, '2026-01-20T00:00:00.000Z');
    const first = await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100 });
    expect(first.creditsUsed).toBe(100);
    const balance = (await api.get(`/api/Customer/${customerId}/CreditBalance`)).body.data[0];
    // The grant that expires first is drawn first, the one without expiry last.
    expect(Object.fromEntries(balance.grants.map((g: { id: string; remaining: number }) => [g.id, g.remaining]))).toEqual({ [late]: 50, [lasting]: 200 });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 1134 });
    const upcoming = (await api.get(`/api/Subscription/${sub.id}/UpcomingInvoice`)).body;

    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    const record = await periodRecord(api, sub.id, 1);
    expect(upcoming).toMatchObject({ lineItems: record.lineItems, creditsApplied: 1750, total: 4420 });
    // 1,234 units × 5 = 6,170; 350 of them paid by credits = 1,750; the card pays 4,420.
    expect(record).toMatchObject({ status: 'paid', subtotal: 6170, creditsApplied: 1750, total: 4420 });
    expect(record.lineItems.slice(1)).toEqual([
      expect.objectContaining({ kind: 'usage', quantity: 1234, amount: 6170 }),
      expect.objectContaining({ kind: 'credit', description: 'Credits applied: 350 api_calls units', amount: -1750, feature: 'api_calls', priceId: price.id }),
    ]);
    expect((await api.get(`/api/Payment/${record.paymentId}`)).body).toMatchObject({ status: 'succeeded', amount: 4420 });
  });

  it('has no upcoming invoice once the subscription will not renew', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    expect((await api.get(`/api/Subscription/${sub.id}/UpcomingInvoice`)).body).toMatchObject({
      total: 0,
      lineItems: [{ kind: 'plan' }, { kind: 'usage', quantity: 0 }],
    });
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: false }, ik())).status).toBe(200);
    const answer = await api.get(`/api/Subscription/${sub.id}/UpcomingInvoice`);
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('INVALID_STATE');
  });

  it('adds and removes items with AddItem / RemoveItem: each bills the usage of the part of the period it was on', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000, name: 'Pro' });
    const calls = await meteredPrice(api, { productId: licensed.productId, amount: 5 });
    const storage = await meteredPrice(api, { productId: licensed.productId, feature: 'storage_gb', amount: 100 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items: [{ priceId: storage.id }] })).body;
    const command = (body: Record<string, unknown>) => api.post(`/api/Subscription/${sub.id}/Command`, body, ik());

    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100, timestamp: '2026-01-05T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'storage_gb', quantity: 3, timestamp: '2026-01-10T00:00:00.000Z' });
    await advance(api, clock, '2026-01-11T00:00:00.000Z');
    const stale = await command({ type: 'AddItem', priceId: calls.id, expectedVersion: '0' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    const added = await command({ type: 'AddItem', priceId: calls.id, expectedVersion: sub.version });
    expect(added.status, added.text).toBe(200);
    expect(added.body.change).toMatchObject({ type: 'AddItem', status: 'applied', toPriceId: calls.id });
    expect((await command({ type: 'AddItem', priceId: calls.id })).body.errors[0].path).toBe('priceId');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 200, timestamp: '2026-01-15T00:00:00.000Z' });

    await advance(api, clock, '2026-01-21T00:00:00.000Z');
    expect((await command({ type: 'RemoveItem', priceId: licensed.id })).body.errors[0].path).toBe('priceId');
    const removed = await command({ type: 'RemoveItem', priceId: storage.id, expectedVersion: added.body.subscription.version });
    expect(removed.status, removed.text).toBe(200);
    expect((await command({ type: 'RemoveItem', priceId: storage.id })).body.errors[0].path).toBe('priceId');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.items.map((item: { priceId: string }) => item.priceId)).toEqual([calls.id]);
    await recordUsage(api, { customerId, feature: 'storage_gb', quantity: 4, timestamp: '2026-01-25T00:00:00.000Z' });

    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    const january = await periodRecord(api, sub.id, 1);
    expect(january.lineItems.filter((line: { kind: string }) => line.kind === 'usage')).toEqual([
      expect.objectContaining({
        feature: 'storage_gb',
        quantity: 3,
        amount: 300,
        periodStart: '2026-01-01T00:00:00.000Z',
        periodEnd: '2026-01-21T00:00:00.000Z',
      }),
      expect.objectContaining({
        feature: 'api_calls',
        quantity: 200,
        amount: 1000,
        periodStart: '2026-01-11T00:00:00.000Z',
        periodEnd: '2026-02-01T00:00:00.000Z',
      }),
    ]);
    expect(january.total).toBe(3300);

    await recordUsage(api, { customerId, feature: 'storage_gb', quantity: 9, timestamp: '2026-02-02T00:00:00.000Z' });
    await advance(api, clock, '2026-03-01T01:00:00.000Z');
    const february = await periodRecord(api, sub.id, 2);
    expect(february.lineItems.filter((line: { kind: string }) => line.kind === 'usage').map((line: { feature: string }) => line.feature)).toEqual([
      'api_calls',
    ]);
  });

  it('leaves reversed usage out and aggregates max, last and unique as the price says', async () => {
    const { api, merchant } = await newMerchant();
    const calls = await meteredPrice(api, { amount: 5 });
    const productId = calls.productId;
    const peak = await meteredPrice(api, { productId, feature: 'storage_gb', aggregation: 'max', amount: 100 });
    const seats = await meteredPrice(api, { productId, feature: 'seats', aggregation: 'last', amount: 1000 });
    const users = await meteredPrice(api, {
      productId,
      feature: 'active_users',
      aggregation: 'unique',
      aggregationProperty: 'user_id',
      unitAmountDecimal: '12.5',
    });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-05-01T00:00:00.000Z');
    const sub = (
      await subscribe(api, { customerId, priceId: calls.id, paymentMethodId, items: [{ priceId: peak.id }, { priceId: seats.id }, { priceId: users.id }] })
    ).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 100 });
    const mistake = await recordUsage(api, { customerId, feature: 'api_calls', quantity: 5000 });
    expect((await api.post(`/api/Usage/${mistake.id}/Reverse`, undefined, ik())).status).toBe(200);
    await recordUsage(api, { customerId, feature: 'storage_gb', quantity: 7, timestamp: '2026-05-02T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'storage_gb', quantity: 3, timestamp: '2026-05-03T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'seats', quantity: 9, timestamp: '2026-05-02T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'seats', quantity: 4, timestamp: '2026-05-20T00:00:00.000Z' });
    for (const user of ['ada', 'grace', 'ada']) await recordUsage(api, { customerId, feature: 'active_users', properties: { user_id: user } });
    await recordUsage(api, { customerId, feature: 'active_users' });

    await advance(api, clock, '2026-06-01T01:00:00.000Z');
    const record = await periodRecord(api, sub.id, 1);
    const byFeature = Object.fromEntries(
      record.lineItems
        .filter((l: { kind: string }) => l.kind === 'usage')
        .map((l: { feature: string; quantity: number; amount: number }) => [l.feature, [l.quantity, l.amount]]),
    );
    // 2 users × 12.5 = 25 exactly; 100 calls × 5; max 7 GB × 100; last 4 seats × 1,000.
    expect(byFeature).toEqual({ api_calls: [100, 500], storage_gb: [7, 700], seats: [4, 4000], active_users: [2, 25] });
    expect(record.total).toBe(5225);
  });

  it('charges the pinned usage once when the renewal is cut off between finalizing the period (phase 1) and charging it, whatever is recorded meanwhile', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 1234 });
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-01T01:00:00Z') })
      .where(eq(testClocks.id, clock));

    vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(() => Promise.reject(new Error('connection to the processor lost')));
    await expect(processSubscription(getDb(), sub.id)).rejects.toThrow('connection to the processor lost');
    const [pending] = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.customerId, customerId), eq(payments.status, 'pending')));
    expect(pending).toMatchObject({
      amount: 6170,
      intent: { kind: 'subscription-renewal', plan: { periodIndex: 1, usage: [{ line: { quantity: 1234, amount: 6170 } }] } },
    });
    // Late usage for the ended period does not change what phase 1 pinned.
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 10, timestamp: '2025-01-15T00:00:00.000Z' });

    await finishPendingPayment(getDb(), pending!);
    const record = await periodRecord(api, sub.id, 1);
    expect(record).toMatchObject({ status: 'paid', total: 6170 });
    expect(record.lineItems[1]).toMatchObject({ kind: 'usage', quantity: 1234, amount: 6170 });
    const booked = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(eq(sandboxProcessorOperations.idempotencyKey, `${sub.id}:p1:a1`));
    expect(booked).toHaveLength(1);
    expect(await processSubscription(getDb(), sub.id)).toBe(0);
  });
});
