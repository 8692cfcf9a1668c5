import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function messages(api: Api, customerId: string) {
  const answer = await api.get(`/api/Customer/${customerId}/Entitlement`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.find((e: { feature: string }) => e.feature === 'messages');
}

async function consume(api: Api, customerId: string, quantity: number) {
  const answer = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity, consume: true });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

describe('Usage across subscription periods on a test clock', () => {
  it('resets each period, grants per paid period, expires grants, follows an upgrade at once, lets an override win', async () => {
    const { api, merchant } = await newMerchant();
    const basic = await recurringPrice(api, { amount: 1000, name: 'Basic' });
    const pro = await recurringPrice(api, { amount: 3000, productId: basic.productId });
    await api.post(`/api/Price/${basic.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 10, creditGrantAmount: 5 });
    await api.post(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 100 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2030-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: basic.id })).body;

    // Period 0: 10 included and 5 credits that expire with the period.
    expect(await messages(api, customerId)).toMatchObject({
      access: 'Limited',
      limit: 10,
      used: 0,
      creditBalance: 5,
      remaining: 15,
      periodStart: '2030-01-01T00:00:00.000Z',
      periodEnd: '2030-02-01T00:00:00.000Z',
      source: { type: 'subscription', id: sub.id },
    });
    expect((await consume(api, customerId, 12)).usage.creditsUsed).toBe(2);
    expect(await messages(api, customerId)).toMatchObject({ used: 12, creditBalance: 3, remaining: 3 });
    const manual = await api.post(
      `/api/Customer/${customerId}/CreditGrant`,
      { feature: 'messages', amount: 7, expiresAt: '2030-02-15T00:00:00Z', reason: 'pack' },
      ik(),
    );
    expect(manual.status, manual.text).toBe(201);

    // Period 1: usage resets, the period's own credits arrive, period 0's are gone, the manual pack stays.
    await advance(api, clock, '2030-02-01T00:00:01.000Z');
    expect(await messages(api, customerId)).toMatchObject({ used: 0, creditBalance: 12, remaining: 22, periodStart: '2030-02-01T00:00:00.000Z' });
    expect((await consume(api, customerId, 11)).usage.creditsUsed).toBe(1);
    // The pack expires mid-period (and was drawn first: it expires before the period's grant).
    await advance(api, clock, '2030-02-16T00:00:00.000Z');
    expect(await messages(api, customerId)).toMatchObject({ used: 11, creditBalance: 5 });

    // Upgrade mid-period: the new limit applies at once, usage so far kept.
    const changed = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId: pro.id }, ik());
    expect(changed.status, changed.text).toBe(200);
    expect(await messages(api, customerId)).toMatchObject({ limit: 100, used: 11, remaining: 89 + 5, allowed: true });
    const change = (await eventsOf(merchant.id, 'entitlement.changed')).at(-1)!.data.object as { cause: string; data: { feature: string; limit: number }[] };
    expect(change.cause).toBe('subscription.price_changed');
    expect(change.data.find((e) => e.feature === 'messages')!.limit).toBe(100);

    // Period 2: reset again under Pro (no credit policy: the earlier period credits expired).
    await advance(api, clock, '2030-03-01T00:00:01.000Z');
    expect(await messages(api, customerId)).toMatchObject({ limit: 100, used: 0, creditBalance: 0, periodStart: '2030-03-01T00:00:00.000Z' });
    const over = await consume(api, customerId, 101);
    expect(over.allowed).toBe(false);

    // An override wins over the policy and keeps the period's count; Denied is denied.
    await api.post(`/api/Customer/${customerId}/EntitlementOverride`, { feature: 'messages', allowed: 'Limited', limit: 3 });
    await consume(api, customerId, 2);
    expect(await messages(api, customerId)).toMatchObject({
      limit: 3,
      used: 2,
      remaining: 1,
      source: { type: 'override' },
      periodStart: '2030-03-01T00:00:00.000Z',
    });
    await api.post(`/api/Customer/${customerId}/EntitlementOverride`, { feature: 'messages', allowed: 'Denied' });
    expect(await consume(api, customerId, 1)).toMatchObject({ allowed: false, access: 'Denied' });

    const summary = await api.get(`/api/Usage/Summary?customerId=${customerId}&groupBy=period`);
    expect(summary.body.data.map((row: { key: string; quantity: number }) => [row.key, row.quantity])).toEqual([
      [`${sub.id}:0`, 12],
      [`${sub.id}:1`, 11],
      [`${sub.id}:2`, 2],
    ]);
    expect(summary.body.data[1]).toMatchObject({ start: '2030-02-01T00:00:00.000Z', end: '2030-03-01T00:00:00.000Z' });
    // Sorted: events of test-clock actions carry the clock's time, the manual grant the real time.
    expect((await eventsOf(merchant.id, 'credit.granted')).map((e) => (e.data.object as { source: string }).source).sort()).toEqual([
      'manual',
      'period',
      'period',
    ]);
    // Periods 0 and 1 went past 10; period 2 stayed under its limits.
    expect(await eventsOf(merchant.id, 'entitlement.exhausted')).toHaveLength(2);
  });
});

describe('docs/usage.md worked example: an AI chat app', () => {
  it('100 messages a month on Pro gated by Check+consume, then a credit pack', async () => {
    const { api, merchant } = await newMerchant();
    const pro = await recurringPrice(api, { amount: 2000, name: 'Pro' });
    await api.post(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 100 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId, priceId: pro.id })).body;
    expect(await messages(api, customerId)).toMatchObject({
      allowed: true,
      access: 'Limited',
      limit: 100,
      used: 0,
      remaining: 100,
      source: { type: 'subscription', id: sub.id },
    });

    const gate = (messageId: string) =>
      api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', consume: true, id: messageId }).then((r) => r.body);
    const month = await Promise.all(Array.from({ length: 101 }, (_, i) => gate(`msg-${i}`)));
    expect(month.filter((g) => g.allowed)).toHaveLength(100);
    expect(await eventsOf(merchant.id, 'entitlement.exhausted')).toHaveLength(1);
    // A retried message (same id) is answered from the original and counts nothing.
    const retried = await gate(`msg-${month.findIndex((g) => g.allowed)}`);
    expect(retried).toMatchObject({ allowed: true, duplicate: true, used: 100 });

    const pack = await api.post(
      `/api/Customer/${customerId}/CreditGrant`,
      { feature: 'messages', amount: 500, reason: 'Credit pack (pay_x)' },
      { 'Idempotency-Key': 'pack-pay_x' },
    );
    expect(pack.status, pack.text).toBe(201);
    const replay = await api.post(
      `/api/Customer/${customerId}/CreditGrant`,
      { feature: 'messages', amount: 500, reason: 'Credit pack (pay_x)' },
      { 'Idempotency-Key': 'pack-pay_x' },
    );
    expect(replay.body.id).toBe(pack.body.id);
    const fromPack = await gate('msg-after-pack');
    expect(fromPack).toMatchObject({ allowed: true, creditBalance: 499, usage: { creditsUsed: 1 } });
    await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', consume: true, quantity: 399 });
    const low = await eventsOf(merchant.id, 'credit.low');
    expect(low).toHaveLength(1);
    expect(low[0]!.data.object).toMatchObject({ customerId, feature: 'messages', balance: 100, granted: 500 });
    expect(await eventsOf(merchant.id, 'credit.granted')).toHaveLength(1);
  });
});
