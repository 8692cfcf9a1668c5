import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { processSubscription } from '@/lib/subscriptions/renewals';
import { markUsageThresholdDue } from '@/lib/subscriptions/usage-thresholds';
// The billing engine run here charges through the engine's registry of money moves.
import '@/lib/server/jobs/money-move-kinds';
import { eventually } from '../helpers/webhook-receiver';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';
import { meteredPrice, periodRecord, recordUsage, subscriptionRecords, usageLines, type SubscriptionRecord } from '../helpers/metered';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

// Issue 31: usage thresholds bill the usage so far as soon as it reaches the amount, once.

const thresholdRecords = (records: SubscriptionRecord[]) => records.filter((r) => r.description.endsWith('usage threshold reached'));

describe('usage thresholds', () => {
  it('bills the usage so far once when 20 concurrent records cross the threshold; the period end bills only the rest', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const created = await subscribe(api, { customerId, priceId: price.id, paymentMethodId, usageThresholdAmount: 1000 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.usageThresholdAmount).toBe(1000);
    const sub = created.body;

    // 20 × 15 units × 5 = 1,500: the threshold (1,000) is crossed once, whichever records the bill finds.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/api/Usage', { customerId, feature: 'api_calls', quantity: 15, id: `burst-${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const [billed] = await eventually(async () => {
      const found = thresholdRecords(await subscriptionRecords(api, sub.id));
      return found.length > 0 && found[0]!.status === 'paid' ? found : undefined;
    });
    // More checks, at once, while the worker's own may still run: none bills again.
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        if (await markUsageThresholdDue(getDb(), sub.id)) await processSubscription(getDb(), sub.id);
      }),
    );
    expect(thresholdRecords(await subscriptionRecords(api, sub.id))).toHaveLength(1);
    const [line] = usageLines(billed!);
    expect(line).toMatchObject({ priceId: price.id, periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2026-02-01T00:00:00.000Z' });
    expect(line!.amount).toBeGreaterThanOrEqual(1000);
    expect(line!.amount).toBe(line!.quantity * 5);
    expect(billed).toMatchObject({ total: line!.amount, amountPaid: line!.amount });
    expect((await api.get(`/api/Payment/${billed!.paymentId}`)).body).toMatchObject({ status: 'succeeded', amount: line!.amount });

    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    const january = await periodRecord(api, sub.id, 1);
    expect(usageLines(january)).toEqual([expect.objectContaining({ quantity: 300 - line!.quantity, amount: 1500 - line!.amount })]);
    expect(thresholdRecords(await subscriptionRecords(api, sub.id))).toHaveLength(1);
  });

  it('is set and removed by the SetUsageThreshold command; usage already over a new threshold is billed at once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 120 });
    const command = (body: Record<string, unknown>) => api.post(`/api/Subscription/${sub.id}/Command`, body, ik());

    expect((await command({ type: 'SetUsageThreshold' })).body.errors[0].path).toBe('usageThresholdAmount');
    expect((await command({ type: 'Pause', usageThresholdAmount: 5 })).body.errors[0].path).toBe('usageThresholdAmount');
    expect((await command({ type: 'SetUsageThreshold', usageThresholdAmount: 0 })).status).toBe(400);
    const set = await command({ type: 'SetUsageThreshold', usageThresholdAmount: 500, expectedVersion: sub.version });
    expect(set.status, set.text).toBe(200);
    expect(set.body.subscription.usageThresholdAmount).toBe(500);
    expect(set.body.change).toMatchObject({ type: 'SetUsageThreshold', status: 'applied' });
    const [billed] = await eventually(async () => {
      const found = thresholdRecords(await subscriptionRecords(api, sub.id));
      return found.length > 0 ? found : undefined;
    });
    expect(usageLines(billed!)).toEqual([expect.objectContaining({ quantity: 120, amount: 600 })]);

    const removed = await command({ type: 'SetUsageThreshold', usageThresholdAmount: null });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.subscription.usageThresholdAmount).toBeNull();
  });

  it('is checked for usage recorded in a batch too', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId, usageThresholdAmount: 500 })).body;
    const batch = await api.post('/api/Usage/Batch', {
      records: [
        { id: 'b-1', customerId, feature: 'api_calls', quantity: 60 },
        { id: 'b-2', customerId, feature: 'api_calls', quantity: 60 },
      ],
    });
    expect(batch.status, batch.text).toBe(200);
    const [billed] = await eventually(async () => {
      const found = thresholdRecords(await subscriptionRecords(api, sub.id));
      return found.length > 0 ? found : undefined;
    });
    expect(usageLines(billed!)).toEqual([expect.objectContaining({ quantity: 120, amount: 600 })]);
  });

  it('reached while a renewal waits for its grace window, bills once that renewal is charged', async () => {
    const { api, merchant } = await newMerchant();
    const price = await meteredPrice(api, { amount: 5 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2026-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId, usageThresholdAmount: 500 })).body;
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 10, timestamp: '2026-01-05T00:00:00.000Z' });
    await advance(api, clock, '2026-02-01T00:30:00.000Z');
    await recordUsage(api, { customerId, feature: 'api_calls', quantity: 120 });

    await advance(api, clock, '2026-02-01T01:00:00.000Z');
    expect(usageLines(await periodRecord(api, sub.id, 1))).toEqual([expect.objectContaining({ quantity: 10, amount: 50 })]);
    const [billed] = await eventually(async () => {
      const found = thresholdRecords(await subscriptionRecords(api, sub.id));
      return found.length > 0 ? found : undefined;
    });
    expect(usageLines(billed!)).toEqual([expect.objectContaining({ quantity: 120, amount: 600, periodStart: '2026-02-01T00:00:00.000Z' })]);
  });

  it('needs metered items', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const refused = await subscribe(api, { customerId, priceId: price.id, paymentMethodId, usageThresholdAmount: 500 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe('usageThresholdAmount');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    const command = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'SetUsageThreshold', usageThresholdAmount: 500 }, ik());
    expect(command.status).toBe(400);
    expect(command.body.errors[0].path).toBe('usageThresholdAmount');
  });
});
