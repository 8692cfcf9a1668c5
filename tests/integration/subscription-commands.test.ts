import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { prorate } from '@/lib/subscriptions/proration';
import { findSubscriptionRow } from '@/lib/subscriptions/queries';
import { writeSubscription } from '@/lib/subscriptions/subscription-writer';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik } from '../helpers/payments';
import { advance, clockFor, customerWithCard, paymentCount, recurringPrice, subscribe } from '../helpers/subscriptions';

// Cancel, Command (change price, pause, resume, cancel at period end, reactivate, scheduled changes) and Preview.

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

  it('the subscription writer refuses a status the state machine does not allow, and writes nothing', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await api.post(`/api/Subscription/${sub.id}/Cancel`, { immediate: true }, ik());
    const write = getDb().transaction(async (tx) => {
      const ended = await findSubscriptionRow(tx, merchant.id, sub.id, { forUpdate: true });
      return writeSubscription(tx, ended, { status: 'active', endedAt: null });
    });
    await expect(write).rejects.toMatchObject({ code: 'INVALID_STATE', options: { extra: { state: 'ended', requested: 'active' } } });
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'ended', version: '3' });
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
    expect(preview.body).toMatchObject({
      prorated: true,
      net: 1505,
      amountDueNow: 1505,
      creditBalanceAfter: 0,
      nextRenewal: { at: '2024-03-01T00:00:00.000Z', amount: 3333, amountDue: 3333 },
    });

    const stale = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: pro.id, expectedVersion: '7' }, ik());
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    const changed = await api.post(
      `/api/Subscription/${sub.id}/Command`,
      { type: 'ChangePrice', priceId: pro.id, expectedVersion: sub.version, reason: 'upgrade' },
      ik(),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.subscription).toMatchObject({ priceId: pro.id, version: '2' });
    expect(changed.body.change).toMatchObject({
      type: 'ChangePrice',
      fromPriceId: basic.id,
      toPriceId: pro.id,
      prorationAmount: 1505,
      reason: 'upgrade',
      version: '2',
    });
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
