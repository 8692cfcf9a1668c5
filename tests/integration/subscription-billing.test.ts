import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { subscriptionBillingRecords, subscriptions, testClocks } from '@/lib/db/schema';
import { dueSubscriptionIds, processSubscription } from '@/lib/subscriptions/renewals';
import { enqueueJob } from '@/lib/jobs/enqueue';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik, waitFor } from '../helpers/payments';
import { advance, CARDS, clockFor, customerWithCard, paymentCount, recurringPrice, subscribe } from '../helpers/subscriptions';

// The billing engine: renewals, period boundaries, dunning, unknown outcomes, exactly-once charging.

describe('Billing engine', () => {
  it('renews monthly from Jan 31 for 13 months with end-of-month clamping, one charge per period', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1200 });
    await api.post(`/api/Price/${price.id}/EntitlementPolicy`, { feature: 'seats', allowed: 'Limited', limit: 5, creditGrantAmount: 3 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-31T09:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const result = await advance(api, clock, '2026-03-01T00:00:00.000Z');
    expect(result.actionsRun).toBe(13);
    const after = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(after).toMatchObject({
      status: 'active',
      currentPeriodIndex: 13,
      currentPeriodStart: '2026-02-28T09:00:00.000Z',
      currentPeriodEnd: '2026-03-31T09:00:00.000Z',
    });
    const links = await getDb().select().from(subscriptionBillingRecords).where(eq(subscriptionBillingRecords.subscriptionId, sub.id));
    expect(links.map((l) => l.periodIndex).sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(await paymentCount(merchant.id)).toBe(14);
    expect(await eventsOf(merchant.id, 'billing_record.paid')).toHaveLength(14);
    expect(await eventsOf(merchant.id, 'credit.granted')).toHaveLength(14);
    const ends = (await eventsOf(merchant.id, 'billing_record.created')).length;
    expect(ends).toBe(14);
    // Advancing again to the same period runs nothing more.
    const again = await advance(api, clock, '2026-03-02T00:00:00.000Z');
    expect(again.actionsRun).toBe(0);
  });

  it('renews every 3 days and yearly from Feb 29', async () => {
    const { api, merchant } = await newMerchant();
    const days = await recurringPrice(api, { amount: 100, interval: 'day', intervalCount: 3 });
    const yearly = await recurringPrice(api, { amount: 10000, interval: 'year' });
    const a = await customerWithCard(api, merchant.id);
    const b = await customerWithCard(api, merchant.id);
    const clockA = await clockFor(api, a.customerId, '2024-02-29T00:00:00.000Z');
    const clockB = await clockFor(api, b.customerId, '2024-02-29T00:00:00.000Z');
    const s1 = (await subscribe(api, { customerId: a.customerId, priceId: days.id })).body;
    const s2 = (await subscribe(api, { customerId: b.customerId, priceId: yearly.id })).body;
    await advance(api, clockA, '2024-03-10T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${s1.id}`)).body).toMatchObject({ currentPeriodIndex: 3, currentPeriodStart: '2024-03-09T00:00:00.000Z' });
    await advance(api, clockB, '2025-03-01T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${s2.id}`)).body).toMatchObject({
      currentPeriodIndex: 1,
      currentPeriodStart: '2025-02-28T00:00:00.000Z',
      currentPeriodEnd: '2026-02-28T00:00:00.000Z',
    });
  });

  it('dunning: a failed renewal goes past_due, retries on days 1, 3, 5, 7, then ends', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000, trialDays: 7 });
    const { customerId } = await customerWithCard(api, merchant.id, CARDS.declined);
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await advance(api, clock, '2025-06-08T00:00:00.000Z');
    const pastDue = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(pastDue).toMatchObject({ status: 'past_due', latestBillingRecord: { status: 'open', attempts: 1, nextAttemptAt: '2025-06-09T00:00:00.000Z' } });
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(1);
    await advance(api, clock, '2025-06-12T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.latestBillingRecord).toMatchObject({ attempts: 3, nextAttemptAt: '2025-06-13T00:00:00.000Z' });
    await advance(api, clock, '2025-06-15T00:00:00.000Z');
    const ended = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(ended).toMatchObject({ status: 'ended', endedAt: '2025-06-15T00:00:00.000Z', latestBillingRecord: { status: 'uncollectible', attempts: 5 } });
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(5);
    expect(await eventsOf(merchant.id, 'subscription.ended')).toHaveLength(1);
  });

  it('a new payment method returns a past_due subscription to active', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000, trialDays: 3 });
    const { customerId } = await customerWithCard(api, merchant.id, CARDS.insufficient);
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await advance(api, clock, '2025-06-04T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.status).toBe('past_due');
    const added = await api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_visa', makeDefault: true }, ik());
    expect(added.status, added.text).toBe(201);
    await advance(api, clock, '2025-06-04T00:00:01.000Z');
    const active = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(active).toMatchObject({ status: 'active', latestBillingRecord: { status: 'paid', attempts: 2 } });
    expect(await eventsOf(merchant.id, 'payment.succeeded')).toHaveLength(1);
  });

  it('an unknown first charge leaves it past_due until the processor answers, then active', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1234 });
    const { customerId } = await customerWithCard(api, merchant.id, '4000000000000259');
    const clock = await clockFor(api, customerId, '2025-09-01T00:00:00.000Z');
    const created = await subscribe(api, { customerId, priceId: price.id });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: 'past_due', latestBillingRecord: { status: 'open', nextAttemptAt: '2025-09-01T01:00:00.000Z' } });
    expect(await eventsOf(merchant.id, 'payment.unknown')).toHaveLength(1);
    await advance(api, clock, '2025-09-01T01:00:00.000Z');
    const after = (await api.get(`/api/Subscription/${created.body.id}`)).body;
    expect(after).toMatchObject({ status: 'active', latestBillingRecord: { status: 'paid', attempts: 1 } });
    expect(await eventsOf(merchant.id, 'payment.succeeded')).toHaveLength(1);
    expect(await paymentCount(merchant.id)).toBe(1);
  });

  it('two workers racing the same renewal charge it once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 999 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    // The clock moves without running anything; then two "workers" run the same subscription at once.
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-01T00:00:00Z') })
      .where(eq(testClocks.id, clock));
    const db = getDb();
    const results = await Promise.all([processSubscription(db, sub.id), processSubscription(db, sub.id), processSubscription(db, sub.id)]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await paymentCount(merchant.id)).toBe(2);
    const links = await db
      .select()
      .from(subscriptionBillingRecords)
      .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(subscriptionBillingRecords.periodIndex, 1)));
    expect(links).toHaveLength(1);
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row!.currentPeriodIndex).toBe(1);
  });

  it('the worker renews a real-time subscription whose period has ended', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 450, interval: 'day' });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const db = getDb();
    // As if the subscription had started 25 hours ago: period 0 ended an hour ago.
    const anchor = new Date(Date.now() - 25 * 3_600_000);
    const periodEnd = new Date(anchor.getTime() + 86_400_000);
    await db
      .update(subscriptions)
      .set({ billingAnchor: anchor, currentPeriodStart: anchor, currentPeriodEnd: periodEnd, nextActionAt: periodEnd })
      .where(eq(subscriptions.id, sub.id));
    expect(await dueSubscriptionIds(db)).toContain(sub.id);
    await db.transaction((tx) => enqueueJob(tx, 'process-subscription', { subscriptionId: sub.id }, { jobKey: `subscription:${sub.id}` }));
    // The period moves when the renewal's charge is pinned (phase 1); the renewal is done once its record is paid.
    const renewed = await waitFor(async () => {
      const body = (await api.get(`/api/Subscription/${sub.id}`)).body;
      return body.latestBillingRecord?.periodIndex === 1 && body.latestBillingRecord.status === 'paid' ? body : undefined;
    });
    expect(renewed).toMatchObject({ status: 'active', latestBillingRecord: { periodIndex: 1, status: 'paid', amount: 450 } });
    expect(new Date(renewed.currentPeriodStart).getTime()).toBe(periodEnd.getTime());
    expect(await paymentCount(merchant.id)).toBe(2);
  });

  it('the database refuses a second record for the same period', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 999 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const db = getDb();
    const [existing] = await db.select().from(subscriptionBillingRecords).where(eq(subscriptionBillingRecords.subscriptionId, sub.id));
    await expect(db.insert(subscriptionBillingRecords).values({ ...existing!, id: 'subbr_duplicate' })).rejects.toThrow();
  });
});
