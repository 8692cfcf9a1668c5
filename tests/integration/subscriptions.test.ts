import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments, subscriptionBillingRecords, subscriptions, testClocks } from '@/lib/db/schema';
import { dueSubscriptionIds, processSubscription } from '@/lib/subscriptions/subscriptions';
import { enqueueJob } from '@/lib/jobs/enqueue';
import { prorate } from '@/lib/subscriptions/proration';
import { newMerchant } from '../helpers/merchants';
import { call } from '../helpers/api';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventsOf, ik, waitFor } from '../helpers/payments';
import { advance, CARDS, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

async function paymentCount(merchantId: string) {
  const [row] = await getDb().select({ value: count() }).from(payments).where(eq(payments.merchantId, merchantId));
  return row!.value;
}

async function records(api: Awaited<ReturnType<typeof newMerchant>>['api'], subscriptionId: string) {
  const answer = await api.get(`/api/Subscription/${subscriptionId}/Change?pageSize=100&orderDirection=asc`);
  return answer.body.data as { type: string; version: string | null; actor: string }[];
}

describe('POST /api/Subscription', () => {
  it('charges the first period at once, grants credits and emits every event', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 2900 });
    const policy = await api.post(`/api/Price/${price.id}/EntitlementPolicy`, { feature: 'api_calls', allowed: 'Limited', limit: 1000, creditGrantAmount: 500 });
    expect(policy.status, policy.text).toBe(201);
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const answer = await subscribe(api, { customerId, priceId: price.id, paymentMethodId, metadata: { plan: 'pro' } });
    expect(answer.status, answer.text).toBe(201);
    const sub = answer.body;
    expect(sub).toMatchObject({
      status: 'active',
      version: '1',
      customerId,
      priceId: price.id,
      paymentMethodId,
      cancelAtPeriodEnd: false,
      trialEnd: null,
      currentPeriodIndex: 0,
      metadata: { plan: 'pro' },
      latestBillingRecord: { status: 'paid', amount: 2900, currency: 'USD', kind: 'period', periodIndex: 0 },
    });
    expect(sub.id).toMatch(/^sub_/);
    const start = new Date(sub.currentPeriodStart);
    const end = new Date(sub.currentPeriodEnd);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toEqual(sub);

    for (const type of ['subscription.created', 'billing_record.created', 'billing_record.paid', 'payment.succeeded', 'credit.granted']) {
      expect(await eventsOf(merchant.id, type), type).toHaveLength(1);
    }
    expect((await eventsOf(merchant.id, 'credit.granted'))[0]!.data.object).toMatchObject({ feature: 'api_calls', amount: 500, subscriptionId: sub.id, periodIndex: 0 });
    expect((await eventsOf(merchant.id, 'subscription.created'))[0]!.data.object).toMatchObject({ id: sub.id, status: 'active' });
    const changes = await records(api, sub.id);
    expect(changes).toEqual([expect.objectContaining({ type: 'Create', version: '1', actor: expect.stringMatching(/^api_key:key_/) })]);
  });

  it('answers 402 for a declined first charge and leaves no subscription', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id, CARDS.declined);
    const answer = await subscribe(api, { customerId, priceId: price.id, paymentMethodRefId: paymentMethodId });
    expect(answer.status, answer.text).toBe(402);
    expect(answer.body).toMatchObject({ code: 'PAYMENT_DECLINED', payment: { status: 'failed', amount: 1500 } });
    expect((await api.get('/api/Subscription')).body.totalCount).toBe(0);
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'subscription.created')).toHaveLength(0);
    expect(await eventsOf(merchant.id, 'billing_record.created')).toHaveLength(0);
  });

  it('starts a trial without a charge, then charges the first period when the trial ends', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000, trialDays: 14 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-03-01T12:00:00.000Z');
    const answer = await subscribe(api, { customerId, priceId: price.id });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      status: 'trialing',
      trialEnd: '2025-03-15T12:00:00.000Z',
      currentPeriodStart: '2025-03-01T12:00:00.000Z',
      currentPeriodEnd: '2025-03-15T12:00:00.000Z',
      latestBillingRecord: null,
      testClockId: clock,
    });
    expect(await paymentCount(merchant.id)).toBe(0);

    await advance(api, clock, '2025-03-15T11:59:59.000Z');
    expect((await api.get(`/api/Subscription/${answer.body.id}`)).body.status).toBe('trialing');
    await advance(api, clock, '2025-03-15T12:00:00.000Z');
    const after = (await api.get(`/api/Subscription/${answer.body.id}`)).body;
    expect(after).toMatchObject({
      status: 'active',
      currentPeriodIndex: 0,
      currentPeriodStart: '2025-03-15T12:00:00.000Z',
      currentPeriodEnd: '2025-04-15T12:00:00.000Z',
      latestBillingRecord: { status: 'paid', amount: 1000, periodIndex: 0 },
    });
    expect(await paymentCount(merchant.id)).toBe(1);
  });

  it('refuses bad input, OneTime prices, unknown and foreign ids', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const missingKey = await api.post('/api/Subscription', { customerId, priceId: price.id });
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const unknownField = await subscribe(api, { customerId, priceId: price.id, quantity: 2 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].path).toBe('quantity');
    const product = await api.post('/api/Product', { name: 'Mug' });
    const oneTime = await api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount: 500, currency: 'USD' });
    const notRecurring = await subscribe(api, { customerId, priceId: oneTime.body.id });
    expect(notRecurring.status).toBe(400);
    expect(notRecurring.body.errors[0].path).toBe('priceId');
    const stranger = await newMerchant();
    const foreign = await subscribe(stranger.api, { customerId, priceId: price.id });
    expect(foreign.status).toBe(404);
    const noCard = await api.post('/api/Customer', { email: 'nocard@example.com' });
    const withoutMethod = await subscribe(api, { customerId: noCard.body.id, priceId: price.id });
    expect(withoutMethod.status).toBe(400);
    expect(withoutMethod.body.errors[0].path).toBe('paymentMethodId');
    expect((await api.get('/api/Subscription')).body.totalCount).toBe(0);
  });

  it('replays an Idempotency-Key without a second charge', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 700 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const key = ik();
    const [a, b] = await Promise.all([
      api.post('/api/Subscription', { customerId, priceId: price.id }, key),
      api.post('/api/Subscription', { customerId, priceId: price.id }, key),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    const replay = await api.post('/api/Subscription', { customerId, priceId: price.id }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentCount(merchant.id)).toBe(1);
  });

  it('checks credentials on every subscription endpoint', async () => {
    const { merchant } = await newMerchant();
    await expectAuthFailures(merchant.id, 'GET', '/api/Subscription', 'subscriptions:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/Subscription', 'subscriptions:write', {});
    await expectAuthFailures(merchant.id, 'GET', '/api/Subscription/sub_x', 'subscriptions:read');
    await expectAuthFailures(merchant.id, 'GET', '/api/Subscription/sub_x/Change', 'subscriptions:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/Subscription/sub_x/Cancel', 'subscriptions:write', {});
    await expectAuthFailures(merchant.id, 'POST', '/api/Subscription/sub_x/Command', 'subscriptions:write', {});
    await expectAuthFailures(merchant.id, 'POST', '/api/Subscription/sub_x/Preview', 'subscriptions:write', {});
    await expectAuthFailures(merchant.id, 'POST', '/api/TestClock', 'subscriptions:write', {});
    expect((await call('GET', '/api/TestClock')).status).toBe(401);
  });
});

describe('GET /api/Subscription', () => {
  it('lists with customer, price and status filters; another merchant sees nothing', async () => {
    const { api, merchant } = await newMerchant();
    const basic = await recurringPrice(api, { amount: 1000 });
    const trial = await recurringPrice(api, { amount: 2000, trialDays: 7 });
    const a = await customerWithCard(api, merchant.id);
    const b = await customerWithCard(api, merchant.id);
    const s1 = (await subscribe(api, { customerId: a.customerId, priceId: basic.id })).body;
    const s2 = (await subscribe(api, { customerId: b.customerId, priceId: trial.id })).body;
    expect((await api.get('/api/Subscription')).body).toMatchObject({ totalCount: 2, page: 1, pageSize: 20, hasMore: false });
    expect((await api.get(`/api/Subscription?customerId=${a.customerId}`)).body.data.map((s: { id: string }) => s.id)).toEqual([s1.id]);
    expect((await api.get(`/api/Subscription?priceId=${trial.id}`)).body.data.map((s: { id: string }) => s.id)).toEqual([s2.id]);
    expect((await api.get('/api/Subscription?status=trialing')).body.data.map((s: { id: string }) => s.id)).toEqual([s2.id]);
    expect((await api.get('/api/Subscription?pageSize=1&orderDirection=asc')).body).toMatchObject({ hasMore: true, data: [{ id: s1.id }] });
    expect((await api.get('/api/Subscription?status=paused')).status).toBe(400);
    const stranger = await newMerchant();
    expect((await stranger.api.get('/api/Subscription')).body.totalCount).toBe(0);
    expect((await stranger.api.get(`/api/Subscription/${s1.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/Subscription/${s1.id}/Change`)).status).toBe(404);
    expect((await stranger.api.post(`/api/Subscription/${s1.id}/Cancel`, {}, ik())).status).toBe(404);
  });
});

describe('Cancel', () => {
  it('at the period end: canceled now, ended when the period ends', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-05-10T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const canceled = await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: false }, ik());
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true, version: '2' });
    expect(await eventsOf(merchant.id, 'subscription.canceled')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'subscription.ended')).toHaveLength(0);
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, {}, ik())).status).toBe(409);
    await advance(api, clock, '2025-06-10T00:00:00.000Z');
    const ended = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(ended).toMatchObject({ status: 'ended', endedAt: '2025-06-10T00:00:00.000Z' });
    expect(await eventsOf(merchant.id, 'subscription.ended')).toHaveLength(1);
    expect(await paymentCount(merchant.id)).toBe(1);
  });

  it('immediately: canceled then ended, no credit', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const answer = await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik());
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ status: 'ended', creditBalance: 0 });
    const canceled = await eventsOf(merchant.id, 'subscription.canceled');
    const ended = await eventsOf(merchant.id, 'subscription.ended');
    expect(canceled).toHaveLength(1);
    expect(ended).toHaveLength(1);
    expect(canceled[0]!.createdAt <= ended[0]!.createdAt).toBe(true);
    expect((await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik())).status).toBe(409);
    const command = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'Reactivate' }, ik());
    expect(command.status).toBe(409);
    expect(command.body.code).toBe('INVALID_STATE');
  });
});

describe('Command and Preview', () => {
  it('prorates a mid-period upgrade by the exact remaining time (leap-year February), Preview = execution', async () => {
    const { api, merchant } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'Plans' })).body.id;
    const basic = await recurringPrice(api, { amount: 1000, productId: product });
    const pro = await recurringPrice(api, { amount: 3333, productId: product });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2024-02-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: basic.id })).body;
    expect(sub.currentPeriodEnd).toBe('2024-03-01T00:00:00.000Z'); // 29 days
    await advance(api, clock, '2024-02-11T07:00:00.000Z');
    const preview = await api.post(`/api/Subscription/${sub.id}/Preview`, { priceId: pro.id });
    expect(preview.status, preview.text).toBe(200);
    const expected = prorate({
      fromAmount: 1000,
      toAmount: 3333,
      periodStart: new Date('2024-02-01T00:00:00Z'),
      periodEnd: new Date('2024-03-01T00:00:00Z'),
      at: new Date('2024-02-11T07:00:00Z'),
    });
    // remaining 18 days 17 h (449 h, Feb 29 included) of 29 days (696 h): 2333 × 449 / 696 = 1505.05… → 1505
    expect(expected.net).toBe(1505);
    expect(preview.body).toMatchObject({ prorated: true, net: 1505, amountDueNow: 1505, creditBalanceAfter: 0, nextRenewal: { at: '2024-03-01T00:00:00.000Z', amount: 3333, amountDue: 3333 } });

    const stale = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: pro.id, expectedVersion: '7' }, ik());
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    const changed = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: pro.id, expectedVersion: sub.version, reason: 'upgrade' }, ik());
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.subscription).toMatchObject({ priceId: pro.id, version: '2' });
    expect(changed.body.change).toMatchObject({ type: 'ChangePrice', fromPriceId: basic.id, toPriceId: pro.id, prorationAmount: 1505, reason: 'upgrade', version: '2' });
    const latest = (await api.get(`/api/Subscription/${sub.id}`)).body.latestBillingRecord;
    expect(latest).toMatchObject({ kind: 'proration', amount: preview.body.amountDueNow, status: 'paid' });

    // Downgrade back: the negative net becomes account credit, used by the next renewal.
    const down = await api.post(`/api/Subscription/${sub.id}/Preview`, { priceId: basic.id });
    expect(down.body.net).toBe(-1505);
    const back = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: basic.id, expectedVersion: '2' }, ik());
    expect(back.body.subscription.creditBalance).toBe(1505);
    await advance(api, clock, '2024-03-01T00:00:00.000Z');
    const renewed = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(renewed.latestBillingRecord).toMatchObject({ kind: 'period', periodIndex: 1, amount: 0, status: 'paid' });
    expect(renewed.creditBalance).toBe(505);
  });

  it('prorates zero-decimal JPY to whole yen and refuses another currency or interval', async () => {
    const { api, merchant } = await newMerchant();
    const small = await recurringPrice(api, { amount: 980, currency: 'JPY' });
    const large = await recurringPrice(api, { amount: 1980, currency: 'JPY' });
    const usd = await recurringPrice(api, { amount: 1980, currency: 'USD' });
    const yearly = await recurringPrice(api, { amount: 9800, currency: 'JPY', interval: 'year' });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-04-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: small.id })).body;
    await advance(api, clock, '2025-04-11T00:00:00.000Z'); // 20 of 30 days remain
    const preview = (await api.post(`/api/Subscription/${sub.id}/Preview`, { priceId: large.id })).body;
    expect(preview).toMatchObject({ currency: 'JPY', net: 667, amountDueNow: 667 }); // 1000 × 20/30 = 666.67 → 667
    const otherCurrency = await api.post(`/api/Subscription/${sub.id}/Preview`, { priceId: usd.id });
    expect(otherCurrency.status).toBe(400);
    expect(otherCurrency.body.detail).toContain('currency');
    const otherInterval = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: yearly.id }, ik());
    expect(otherInterval.status).toBe(400);
    expect(otherInterval.body.detail).toContain('interval');
  });

  it('concurrent Commands with the same expectedVersion: one wins, the other gets 409', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const answers = await Promise.all([
      api.post(`/api/Subscription/${sub.id}/Command`, { type: 'Pause', expectedVersion: '1' }, ik()),
      api.post(`/api/Subscription/${sub.id}/Command`, { type: 'CancelAtPeriodEnd', expectedVersion: '1' }, ik()),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('VERSION_CONFLICT');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.version).toBe('2');
  });

  it('Pause skips charges, Resume restores them; CancelAtPeriodEnd and Reactivate; scheduled changes run on time', async () => {
    const { api, merchant } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'Plans' })).body.id;
    const price = await recurringPrice(api, { amount: 500, interval: 'week', productId: product });
    const other = await recurringPrice(api, { amount: 800, interval: 'week', productId: product });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-06T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    const cmd = (body: object) => api.post(`/api/Subscription/${sub.id}/Command`, body, ik());
    expect((await cmd({ type: 'Pause' })).body.subscription.pausedAt).toBe('2025-01-06T00:00:00.000Z');
    expect((await cmd({ type: 'Pause' })).status).toBe(409);
    await advance(api, clock, '2025-01-13T00:00:00.000Z');
    expect(await paymentCount(merchant.id)).toBe(1);
    expect((await cmd({ type: 'Resume', reason: 'back' })).body.subscription.pausedAt).toBeNull();
    const scheduled = await cmd({ type: 'ChangePrice', priceId: other.id, effectiveAt: '2025-01-20T00:00:00.000Z' });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.change).toMatchObject({ status: 'scheduled', version: null });
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.scheduledChanges).toHaveLength(1);
    await advance(api, clock, '2025-01-20T00:00:00.000Z');
    const after = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(after.priceId).toBe(other.id);
    expect(after.latestBillingRecord).toMatchObject({ amount: 800, periodIndex: 2 });
    expect((await cmd({ type: 'CancelAtPeriodEnd' })).body.subscription.status).toBe('canceled');
    expect((await cmd({ type: 'Reactivate' })).body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect((await cmd({ type: 'ChangePrice' })).status).toBe(400);
    expect((await cmd({ type: 'Explode' })).status).toBe(400);
    const types = (await api.get(`/api/Subscription/${sub.id}/Change?pageSize=100&orderDirection=asc`)).body.data.map((c: { type: string }) => c.type);
    expect(types).toEqual(['Create', 'Pause', 'Renew', 'Resume', 'ChangePrice', 'Renew', 'CancelAtPeriodEnd', 'Reactivate']);
  });
});

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
    expect(after).toMatchObject({ status: 'active', currentPeriodIndex: 13, currentPeriodStart: '2026-02-28T09:00:00.000Z', currentPeriodEnd: '2026-03-31T09:00:00.000Z' });
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
    expect((await api.get(`/api/Subscription/${s2.id}`)).body).toMatchObject({ currentPeriodIndex: 1, currentPeriodStart: '2025-02-28T00:00:00.000Z', currentPeriodEnd: '2026-02-28T00:00:00.000Z' });
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
    await getDb().update(testClocks).set({ frozenTime: new Date('2025-02-01T00:00:00Z') }).where(eq(testClocks.id, clock));
    const db = getDb();
    const results = await Promise.all([processSubscription(db, sub.id), processSubscription(db, sub.id), processSubscription(db, sub.id)]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await paymentCount(merchant.id)).toBe(2);
    const links = await db.select().from(subscriptionBillingRecords).where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(subscriptionBillingRecords.periodIndex, 1)));
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
    const renewed = await waitFor(async () => {
      const body = (await api.get(`/api/Subscription/${sub.id}`)).body;
      return body.currentPeriodIndex === 1 ? body : undefined;
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
    await expect(
      db.insert(subscriptionBillingRecords).values({ ...existing!, id: 'subbr_duplicate' }),
    ).rejects.toThrow();
  });
});

describe('Test clocks', () => {
  it('creates, lists, attaches and refuses to go backwards or attach a subscribed customer', async () => {
    const { api, merchant } = await newMerchant();
    const created = await api.post('/api/TestClock', { name: 'year one', frozenTime: '2030-01-01T00:00:00Z' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'year one', frozenTime: '2030-01-01T00:00:00.000Z', customerIds: [] });
    expect((await api.get('/api/TestClock')).body.totalCount).toBe(1);
    const back = await api.post(`/api/TestClock/${created.body.id}/Advance`, { frozenTime: '2029-01-01T00:00:00Z' });
    expect(back.status).toBe(400);
    const price = await recurringPrice(api, { amount: 100 });
    const { customerId } = await customerWithCard(api, merchant.id);
    await subscribe(api, { customerId, priceId: price.id });
    const attach = await api.post(`/api/TestClock/${created.body.id}/Customer`, { customerId });
    expect(attach.status).toBe(409);
    const stranger = await newMerchant();
    expect((await stranger.api.get(`/api/TestClock/${created.body.id}`)).status).toBe(404);
  });
});
