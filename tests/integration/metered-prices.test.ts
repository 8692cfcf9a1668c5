import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';

async function withProduct() {
  const seller = await newMerchant();
  const { body: product } = await seller.api.post('/api/Product', { name: 'API' });
  return { ...seller, product };
}

const LICENSED_DEFAULTS = {
  usageType: 'licensed',
  feature: null,
  aggregation: null,
  aggregationProperty: null,
  unitAmountDecimal: null,
  tiers: null,
  tiersMode: null,
  packageSize: null,
};

describe('metered prices (/api/Price with usageType "metered")', () => {
  it('creates per-unit, decimal, tiered and package prices and answers them on GET and in the list', async () => {
    const { api, product } = await withProduct();
    const base = { productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', usageType: 'metered', feature: 'api_calls' };
    const perUnit = await api.post('/api/Price', { ...base, amount: 5 });
    expect(perUnit.status, JSON.stringify(perUnit.body)).toBe(201);
    expect(perUnit.body).toMatchObject({ usageType: 'metered', feature: 'api_calls', aggregation: 'sum', amount: 5, tiers: null, trialDays: null });

    const decimal = await api.post('/api/Price', { ...base, feature: 'tokens', unitAmountDecimal: '0.0004', aggregation: 'sum' });
    expect(decimal.body).toMatchObject({ amount: 0, unitAmountDecimal: '0.0004', feature: 'tokens' });

    const tiers = [
      { upTo: 1000, unitAmount: 0 },
      { upTo: 10_000, unitAmountDecimal: '1.5', flatAmount: 100 },
      { upTo: null, unitAmount: 1 },
    ];
    const graduated = await api.post('/api/Price', { ...base, tiers, tiersMode: 'graduated' });
    expect(graduated.status, JSON.stringify(graduated.body)).toBe(201);
    expect(graduated.body.tiers).toEqual([
      { upTo: 1000, unitAmount: 0, unitAmountDecimal: null, flatAmount: null },
      { upTo: 10_000, unitAmount: null, unitAmountDecimal: '1.5', flatAmount: 100 },
      { upTo: null, unitAmount: 1, unitAmountDecimal: null, flatAmount: null },
    ]);
    expect(graduated.body.tiersMode).toBe('graduated');

    const seats = await api.post('/api/Price', {
      ...base,
      feature: 'seats',
      aggregation: 'unique',
      aggregationProperty: 'user_id',
      amount: 800,
      packageSize: 5,
    });
    expect(seats.body).toMatchObject({ aggregation: 'unique', aggregationProperty: 'user_id', packageSize: 5 });

    expect((await api.get(`/api/Price/${graduated.body.id}`)).body).toEqual(graduated.body);
    const listed = await api.get('/api/Price?pageSize=10');
    expect(listed.body.data.map((price: { id: string }) => price.id).sort()).toEqual(
      [perUnit.body.id, decimal.body.id, graduated.body.id, seats.body.id].sort(),
    );

    const licensed = await api.post('/api/Price', { productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', amount: 2000 });
    expect(licensed.body).toMatchObject(LICENSED_DEFAULTS);
  });

  it('refuses inconsistent metered prices with 400 naming the field, and writes nothing', async () => {
    const { api, product } = await withProduct();
    const base = { productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', usageType: 'metered', feature: 'api_calls', amount: 5 };
    const { amount: _amount, ...unpriced } = base;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, usageType: 'per-seat' }, 'usageType'],
      [{ ...base, type: 'OneTime', interval: undefined }, 'usageType'],
      [{ ...base, feature: undefined }, 'feature'],
      [{ ...base, feature: 'Has Spaces' }, 'feature'],
      [{ ...base, trialDays: 7 }, 'trialDays'],
      [{ ...base, aggregation: 'average' }, 'aggregation'],
      [{ ...base, aggregation: 'unique' }, 'aggregationProperty'],
      [{ ...base, aggregationProperty: 'user_id' }, 'aggregationProperty'],
      [unpriced, 'amount'],
      [{ ...base, unitAmountDecimal: '0.1' }, 'unitAmountDecimal'],
      [{ ...unpriced, unitAmountDecimal: '0.0000000000001' }, 'unitAmountDecimal'],
      [{ ...unpriced, unitAmountDecimal: '-1' }, 'unitAmountDecimal'],
      [{ ...unpriced, unitAmountDecimal: '1e-4' }, 'unitAmountDecimal'],
      [{ ...unpriced, tiers: [{ upTo: null, unitAmount: 1 }] }, 'tiersMode'],
      [{ ...base, tiersMode: 'volume' }, 'tiersMode'],
      [{ ...unpriced, tiersMode: 'graduated', tiers: [] }, 'tiers'],
      [{ ...unpriced, tiersMode: 'graduated', tiers: [{ upTo: 10, unitAmount: 1 }] }, 'tiers.0.upTo'],
      [
        {
          ...unpriced,
          tiersMode: 'graduated',
          tiers: [
            { upTo: null, unitAmount: 1 },
            { upTo: null, unitAmount: 1 },
          ],
        },
        'tiers.0.upTo',
      ],
      [
        {
          ...unpriced,
          tiersMode: 'graduated',
          tiers: [
            { upTo: 10, unitAmount: 1 },
            { upTo: 10, unitAmount: 1 },
            { upTo: null, unitAmount: 1 },
          ],
        },
        'tiers.1.upTo',
      ],
      [{ ...unpriced, tiersMode: 'graduated', tiers: [{ upTo: null, unitAmount: 1, unitAmountDecimal: '1' }] }, 'tiers.0.unitAmountDecimal'],
      [{ ...unpriced, tiersMode: 'graduated', tiers: [{ upTo: null }] }, 'tiers.0.unitAmount'],
      [
        {
          ...unpriced,
          tiersMode: 'graduated',
          tiers: [
            { upTo: 0, unitAmount: 1 },
            { upTo: null, unitAmount: 1 },
          ],
        },
        'tiers.0.upTo',
      ],
      [{ ...base, packageSize: 0 }, 'packageSize'],
      [{ productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month' }, 'amount'],
      [{ productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', amount: 100, feature: 'api_calls' }, 'feature'],
      [{ productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', amount: 100, packageSize: 10 }, 'packageSize'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/Price', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await api.get('/api/Price')).body.totalCount).toBe(0);
  });

  it('cannot be bought at checkout or sold by a payment link: its usage is billed in arrears', async () => {
    const { api, product } = await withProduct();
    const metered = await api.post('/api/Price', {
      productId: product.id,
      type: 'Recurring',
      currency: 'USD',
      interval: 'month',
      usageType: 'metered',
      feature: 'api_calls',
      amount: 5,
    });
    const link = await api.post('/api/PaymentLink', { priceId: metered.body.id });
    expect(link.status).toBe(400);
    expect(link.body.errors[0].path).toBe('priceId');
    const checkout = await api.post(
      '/api/Checkout',
      { priceId: metered.body.id, customerEmail: 'ada@example.com', tokenRef: 'tok_visa' },
      { 'Idempotency-Key': `metered-${metered.body.id}` },
    );
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(400);
    expect(checkout.body.errors[0].path).toBe('priceId');
  });
});
