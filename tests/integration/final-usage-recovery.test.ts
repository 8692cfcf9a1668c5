import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments, sandboxProcessorOperations, testClocks } from '@/lib/db/schema';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { finishPendingPayment } from '@/lib/payments/recovery';
import { processSubscription } from '@/lib/subscriptions/renewals';
// Recovery finds each payment's kind of money move in the engine's registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';
import { meteredPrice, recordUsage, subscriptionRecords, usageLines } from '../helpers/metered';
import { advance, CARDS, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

// Issue 31: an ended subscription's last usage is charged exactly once across a crash between
// finalizing it (phase 1 pins the plan) and charging it, and never to a customer who left.

afterEach(() => {
  vi.restoreAllMocks();
});

/** A subscription canceled at once half an hour in with 40 units (200) of usage, its final usage cut off after phase 1. */
async function finalUsageCutOff() {
  const { api, merchant } = await newMerchant();
  const price = await meteredPrice(api, { amount: 5 });
  const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
  const clock = await clockFor(api, customerId, '2025-03-01T00:00:00.000Z');
  const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
  await recordUsage(api, { customerId, feature: 'api_calls', quantity: 40 });
  await advance(api, clock, '2025-03-01T00:30:00.000Z');
  expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik())).status).toBe(200);
  await getDb()
    .update(testClocks)
    .set({ frozenTime: new Date('2025-03-01T01:30:00Z') })
    .where(eq(testClocks.id, clock));
  vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(() => Promise.reject(new Error('connection to the processor lost')));
  await expect(processSubscription(getDb(), sub.id)).rejects.toThrow('connection to the processor lost');
  const [pending] = await getDb()
    .select()
    .from(payments)
    .where(and(eq(payments.customerId, customerId), eq(payments.status, 'pending')));
  expect(pending).toMatchObject({ amount: 200, intent: { kind: 'subscription-final-usage', plan: { usage: [{ line: { quantity: 40, amount: 200 } }] } } });
  // Nothing else of the subscription starts while its charge is in flight.
  expect(await processSubscription(getDb(), sub.id)).toBe(0);
  return { api, customerId, sub, pending: pending! };
}

async function processorOperations(subscriptionId: string) {
  return getDb()
    .select()
    .from(sandboxProcessorOperations)
    .where(like(sandboxProcessorOperations.idempotencyKey, `${subscriptionId}:usage:%`));
}

describe('the last usage of an ended subscription across a crash', () => {
  it('is charged once by recovery, whatever is recorded meanwhile', async () => {
    const { api, customerId, sub, pending } = await finalUsageCutOff();
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 10, timestamp: '2025-03-01T00:00:00.000Z' });

    await finishPendingPayment(getDb(), pending);
    const [, final] = await subscriptionRecords(api, sub.id);
    expect(final).toMatchObject({ status: 'paid', total: 200, paymentId: pending.id });
    expect(await processorOperations(sub.id)).toHaveLength(1);
    expect(await processSubscription(getDb(), sub.id)).toBe(0);
    await finishPendingPayment(getDb(), pending);
    expect(await processorOperations(sub.id)).toHaveLength(1);
  });

  it('is not charged by recovery once the customer is archived', async () => {
    const { api, customerId, sub, pending } = await finalUsageCutOff();
    expect((await api.put(`/api/Customer/${customerId}`, { status: 'archived' })).status).toBe(200);

    await finishPendingPayment(getDb(), pending);
    expect((await api.get(`/api/Payment/${pending.id}`)).body).toMatchObject({ status: 'failed', failureCode: 'no_longer_applies' });
    const [, final] = await subscriptionRecords(api, sub.id);
    expect(final).toMatchObject({ status: 'uncollectible', total: 200 });
    expect(await processorOperations(sub.id)).toHaveLength(0);
  });
});

describe('a subscription ended by dunning', () => {
  it('bills the usage of its last period once, after the end and the grace window; a decline leaves it uncollectible', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 1000, name: 'Pro' });
    const calls = await meteredPrice(api, { productId: licensed.productId, amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items: [{ priceId: calls.id }] })).body;
    const declining = await new SandboxProcessor().tokenizeCard({ number: CARDS.declined, expMonth: 12, expYear: 2040, cvc: '123' });
    const method = await getDb().transaction((tx) => savePaymentMethod(tx, merchant.id, customerId, declining));
    expect((await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePaymentMethod', paymentMethodId: method.id }, ik())).status).toBe(200);
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 20, timestamp: '2025-01-10T00:00:00.000Z' });
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 8, timestamp: '2025-02-03T00:00:00.000Z' });

    // January's renewal (charged at 01:00) declines; the last retry (day 7) fails and the subscription ends.
    await advance(api, clock, '2025-02-08T01:00:00.000Z');
    const ended = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(ended).toMatchObject({ status: 'ended', endedAt: '2025-02-08T01:00:00.000Z' });
    await advance(api, clock, '2025-02-08T02:00:00.000Z');
    const records = await subscriptionRecords(api, sub.id);
    expect(records.map((r) => [r.periodIndex, r.status])).toEqual([
      [0, 'paid'],
      [1, 'uncollectible'],
      [1, 'uncollectible'],
    ]);
    expect(usageLines(records[1]!)).toEqual([expect.objectContaining({ quantity: 20, amount: 100 })]);
    expect(records[2]!.lineItems).toEqual([
      expect.objectContaining({ kind: 'usage', quantity: 8, amount: 40, periodStart: '2025-02-01T00:00:00.000Z', periodEnd: '2025-02-08T01:00:00.000Z' }),
    ]);
    await advance(api, clock, '2025-04-01T00:00:00.000Z');
    expect(await subscriptionRecords(api, sub.id)).toHaveLength(3);
  });
});
