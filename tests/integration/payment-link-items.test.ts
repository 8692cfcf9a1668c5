import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';

// Issue 31: a payment link for a licensed Recurring price may name metered prices (`items`) that
// the subscription its checkout creates carries, billed in arrears at each period end.

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function price(api: Api, productId: string, fields: Record<string, unknown>) {
  const answer = await api.post('/api/Price', { productId, type: 'Recurring', currency: 'USD', interval: 'month', ...fields });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

const metered = (feature: string, extra: Record<string, unknown> = {}) => ({ usageType: 'metered', feature, amount: 5, ...extra });

describe('payment links with metered items', () => {
  it('creates the subscription with the link’s metered items when the link is paid', async () => {
    const { api } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'API' })).body.id;
    const pro = await price(api, product, { amount: 2000 });
    const calls = await price(api, product, metered('api_calls'));
    const tokens = await price(api, product, metered('tokens', { amount: undefined, unitAmountDecimal: '0.04' }));

    const link = await api.post('/api/PaymentLink', { priceId: pro, items: [{ priceId: calls }, { priceId: tokens }] });
    expect(link.status, link.text).toBe(201);
    expect(link.body).toMatchObject({ priceId: pro, amount: 2000, items: [{ priceId: calls }, { priceId: tokens }] });
    expect((await api.get(`/api/PaymentLink/${link.body.id}`)).body.items).toEqual([{ priceId: calls }, { priceId: tokens }]);

    const paid = await api.post(`/api/PaymentLink/${link.body.id}/Complete`, { customerEmail: 'items@example.com', tokenRef: 'tok_visa' }, ik());
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid', total: 2000 });
    const sub = (await api.get(`/api/Subscription/${paid.body.subscriptionId}`)).body;
    expect(sub).toMatchObject({ priceId: pro, status: 'active' });
    expect(sub.items.map((item: { priceId: string; feature: string }) => [item.priceId, item.feature])).toEqual([
      [calls, 'api_calls'],
      [tokens, 'tokens'],
    ]);

    // A link without items is unchanged: its subscription has none.
    const plain = await api.post('/api/PaymentLink', { priceId: pro });
    expect(plain.body.items).toEqual([]);
    const plainPaid = await api.post(`/api/PaymentLink/${plain.body.id}/Complete`, { customerEmail: 'plain@example.com', tokenRef: 'tok_visa' }, ik());
    expect((await api.get(`/api/Subscription/${plainPaid.body.subscriptionId}`)).body.items).toEqual([]);
  });

  it('refuses items that do not fit the link’s price, naming the field', async () => {
    const { api } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'API' })).body.id;
    const pro = await price(api, product, { amount: 2000 });
    const calls = await price(api, product, metered('api_calls'));
    const callsAgain = await price(api, product, metered('api_calls', { amount: 4 }));
    const euro = await price(api, product, metered('messages', { currency: 'EUR' }));
    const yearly = await price(api, product, metered('seats', { interval: 'year' }));
    const licensed = await price(api, product, { amount: 500 });
    const oneTime = (await api.post('/api/Price', { productId: product, type: 'OneTime', amount: 900, currency: 'USD' })).body.id;
    const other = await newMerchant();
    const othersProduct = (await other.api.post('/api/Product', { name: 'Theirs' })).body.id;
    const theirs = await price(other.api, othersProduct, metered('api_calls'));

    const refusal = async (body: Record<string, unknown>, status = 400) => {
      const answer = await api.post('/api/PaymentLink', body);
      expect(answer.status, answer.text).toBe(status);
      return answer.body.errors.map((e: { path: string }) => e.path);
    };
    expect(await refusal({ priceId: pro, items: [{ priceId: euro }] })).toEqual(['items.0.priceId']);
    expect(await refusal({ priceId: pro, items: [{ priceId: calls }, { priceId: yearly }] })).toEqual(['items.1.priceId']);
    expect(await refusal({ priceId: pro, items: [{ priceId: licensed }] })).toEqual(['items.0.priceId']);
    expect(await refusal({ priceId: pro, items: [{ priceId: calls }, { priceId: callsAgain }] })).toEqual(['items.1.priceId']);
    expect(await refusal({ priceId: pro, items: [{ priceId: theirs }] }, 404)).toEqual(['items.0.priceId']);
    expect(await refusal({ priceId: oneTime, items: [{ priceId: calls }] })).toEqual(['items']);
    expect(await refusal({ name: 'Ad hoc', unitAmount: 500, currency: 'USD', items: [{ priceId: calls }] })).toEqual(['items']);
    expect(await refusal({ priceId: pro, items: [{ priceId: calls, quantity: 2 }] })).toEqual(['items.0.quantity']);
  });
});
