import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function meteredPrice(api: Api, productId: string, fields: Record<string, unknown>) {
  const answer = await api.post('/api/Price', {
    productId,
    type: 'Recurring',
    currency: 'USD',
    interval: 'month',
    usageType: 'metered',
    feature: 'api_calls',
    amount: 5,
    ...fields,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string };
}

describe('subscriptions with metered items', () => {
  it('stores a licensed price with metered items and answers them on the subscription', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000 });
    const calls = await meteredPrice(api, licensed.productId, { feature: 'api_calls' });
    const tokens = await meteredPrice(api, licensed.productId, { feature: 'tokens', amount: undefined, unitAmountDecimal: '0.0004' });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const created = await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items: [{ priceId: calls.id }, { priceId: tokens.id }] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.items.map((item: { priceId: string; feature: string }) => [item.priceId, item.feature])).toEqual([
      [calls.id, 'api_calls'],
      [tokens.id, 'tokens'],
    ]);
    expect(created.body.items[0].id).toMatch(/^si_/);
    // The licensed price is charged in advance as before; usage comes at the period end.
    expect(created.body.latestBillingRecord).toMatchObject({ amount: 2000, status: 'paid' });
    const again = await api.get(`/api/Subscription/${created.body.id}`);
    expect(again.body.items).toEqual(created.body.items);
  });

  it('takes a metered price alone: nothing is charged in advance, the price is its own item', async () => {
    const { api, merchant } = await newMerchant();
    const { body: product } = await api.post('/api/Product', { name: 'API' });
    const calls = await meteredPrice(api, product.id, {});
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const created = await subscribe(api, { customerId, priceId: calls.id, paymentMethodId });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', priceId: calls.id, upcomingRenewal: { amount: 0, amountDue: 0 } });
    expect(created.body.items.map((item: { priceId: string }) => item.priceId)).toEqual([calls.id]);
    expect(created.body.latestBillingRecord).toMatchObject({ amount: 0, status: 'paid' });
  });

  it('refuses items that are licensed, in another currency or cadence, repeated, or for a feature already billed (400 naming the item)', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000 });
    const productId = licensed.productId;
    const calls = await meteredPrice(api, productId, {});
    const otherLicensed = await recurringPrice(api, { amount: 900, productId });
    const euro = await meteredPrice(api, productId, { currency: 'EUR', feature: 'eur_calls' });
    const yearly = await meteredPrice(api, productId, { interval: 'year', feature: 'yearly_calls' });
    const quarterly = await meteredPrice(api, productId, { intervalCount: 3, feature: 'quarter_calls' });
    const sameFeature = await meteredPrice(api, productId, { amount: 7 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const cases: [unknown[], string][] = [
      [[{ priceId: otherLicensed.id }], 'items.0.priceId'],
      [[{ priceId: calls.id }, { priceId: euro.id }], 'items.1.priceId'],
      [[{ priceId: yearly.id }], 'items.0.priceId'],
      [[{ priceId: quarterly.id }], 'items.0.priceId'],
      [[{ priceId: calls.id }, { priceId: calls.id }], 'items.1.priceId'],
      [[{ priceId: calls.id }, { priceId: sameFeature.id }], 'items.1.priceId'],
      [[{ priceId: 'price_unknown' }], 'items.0.priceId'],
      [[{ price: calls.id }], 'items.0.price'],
    ];
    for (const [items, path] of cases) {
      const answer = await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId, items });
      expect([400, 404], `${JSON.stringify(items)}: ${answer.text}`).toContain(answer.status);
      expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    // The subscription's own metered price cannot come again as an item.
    const twice = await subscribe(api, { customerId, priceId: calls.id, paymentMethodId, items: [{ priceId: calls.id }] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].path).toBe('items.0.priceId');
    expect((await api.get(`/api/Subscription?customerId=${customerId}`)).body.totalCount).toBe(0);
  });

  it('keeps ChangePrice between licensed prices', async () => {
    const { api, merchant } = await newMerchant();
    const licensed = await recurringPrice(api, { amount: 2000 });
    const calls = await meteredPrice(api, licensed.productId, {});
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const created = await subscribe(api, { customerId, priceId: licensed.id, paymentMethodId });
    const command = await api.post(
      `/api/Subscription/${created.body.id}/Command`,
      { type: 'ChangePrice', priceId: calls.id },
      { 'Idempotency-Key': `change-${created.body.id}` },
    );
    expect(command.status, command.text).toBe(400);
    expect(command.body.errors[0].path).toBe('priceId');
  });
});
