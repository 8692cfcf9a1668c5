import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { call } from '../helpers/api';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventsOf, ik } from '../helpers/payments';
import { advance, CARDS, clockFor, customerWithCard, paymentCount, recurringPrice, subscribe } from '../helpers/subscriptions';

// Creating and listing subscriptions, credentials, test clocks. Cancel and commands: subscription-commands.test.ts; renewals and dunning: subscription-billing.test.ts.

async function records(api: Awaited<ReturnType<typeof newMerchant>>['api'], subscriptionId: string) {
  const answer = await api.get(`/api/Subscription/${subscriptionId}/Change?pageSize=100&orderDirection=asc`);
  return answer.body.data as { type: string; version: string | null; actor: string }[];
}

describe('POST /api/Subscription', () => {
  it('charges the first period at once, grants credits and emits every event', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 2900 });
    const policy = await api.post(`/api/Price/${price.id}/EntitlementPolicy`, {
      feature: 'api_calls',
      allowed: 'Limited',
      limit: 1000,
      creditGrantAmount: 500,
    });
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
    expect((await eventsOf(merchant.id, 'credit.granted'))[0]!.data.object).toMatchObject({
      feature: 'api_calls',
      amount: 500,
      subscriptionId: sub.id,
      periodIndex: 0,
    });
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
