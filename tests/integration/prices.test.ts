import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';

async function withProduct() {
  const seller = await newMerchant();
  const { body: product } = await seller.api.post('/api/Product', { name: 'Widget' });
  return { ...seller, product };
}

describe('/api/Price', () => {
  it('creates a OneTime price, upper-casing the currency, and records price.created', async () => {
    const { api, merchant, product } = await withProduct();
    const answer = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 1050, currency: 'usd' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      productId: product.id,
      type: 'OneTime',
      amount: 1050,
      currency: 'USD',
      interval: null,
      intervalCount: null,
      trialDays: null,
      active: true,
    });
    expect(answer.body.id).toMatch(/^price_/);
    const recorded = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.merchantId, merchant.id), eq(events.type, 'price.created')));
    expect(recorded.map((e) => e.data.object)).toEqual([answer.body]);
  });

  it('creates Recurring prices for every interval; intervalCount defaults to 1', async () => {
    const { api, product } = await withProduct();
    for (const interval of ['day', 'week', 'month', 'year']) {
      const answer = await api.post('/api/Price', { productId: product.id, type: 'Recurring', amount: 500, currency: 'EUR', interval });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ interval, intervalCount: 1 });
    }
    const quarterly = await api.post('/api/Price', {
      productId: product.id,
      type: 'Recurring',
      amount: 2900,
      currency: 'GBP',
      interval: 'month',
      intervalCount: 3,
      trialDays: 14,
    });
    expect(quarterly.body).toMatchObject({ interval: 'month', intervalCount: 3, trialDays: 14 });
  });

  it('keeps zero-decimal and three-decimal amounts as given', async () => {
    const { api, product } = await withProduct();
    const yen = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 1500, currency: 'JPY' });
    expect(yen.body).toMatchObject({ amount: 1500, currency: 'JPY' });
    const dinar = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 1234, currency: 'kwd' });
    expect(dinar.body).toMatchObject({ amount: 1234, currency: 'KWD' });
  });

  it('rejects invalid prices with the field path and writes nothing', async () => {
    const { api, merchant, product } = await withProduct();
    const base = { productId: product.id, type: 'OneTime', amount: 100, currency: 'USD' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, type: 'Monthly' }, 'type'],
      [{ ...base, amount: -1 }, 'amount'],
      [{ ...base, amount: 2_147_483_648 }, 'amount'],
      [{ ...base, amount: 10.5 }, 'amount'],
      [{ ...base, amount: '100' }, 'amount'],
      [{ ...base, currency: 'XYZ' }, 'currency'],
      [{ ...base, currency: 'US' }, 'currency'],
      [{ ...base, interval: 'month' }, 'interval'],
      [{ ...base, intervalCount: 1 }, 'intervalCount'],
      [{ ...base, trialDays: 7 }, 'trialDays'],
      [{ ...base, type: 'Recurring' }, 'interval'],
      [{ ...base, type: 'Recurring', interval: 'fortnight' }, 'interval'],
      [{ ...base, type: 'Recurring', interval: 'month', intervalCount: 0 }, 'intervalCount'],
      [{ ...base, type: 'Recurring', interval: 'month', intervalCount: 37 }, 'intervalCount'],
      [{ type: 'OneTime', amount: 100, currency: 'USD' }, 'productId'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/Price', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await api.get('/api/Price')).body.totalCount).toBe(0);
    const priceEvents = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.merchantId, merchant.id), eq(events.type, 'price.created')));
    expect(priceEvents).toHaveLength(0);
  });

  it("answers 404 for an unknown or another merchant's product", async () => {
    const { api } = await withProduct();
    const other = await withProduct();
    const answer = await api.post('/api/Price', { productId: other.product.id, type: 'OneTime', amount: 1, currency: 'USD' });
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].path).toBe('productId');
  });

  it('changes only active with PUT; any other field is a 400', async () => {
    const { api, product } = await withProduct();
    const { body: price } = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 100, currency: 'USD' });
    const deactivated = await api.put(`/api/Price/${price.id}`, { active: false });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ active: false, amount: 100 });
    for (const body of [{ amount: 200 }, { active: true, amount: 200 }, { currency: 'EUR' }, {}]) {
      const answer = await api.put(`/api/Price/${price.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get(`/api/Price/${price.id}`)).body).toMatchObject({ active: false, amount: 100, currency: 'USD' });
  });

  it('lists with the productId filter, other filters and paging', async () => {
    const { api, product } = await withProduct();
    const { body: other } = await api.post('/api/Product', { name: 'Other' });
    await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 300, currency: 'USD' });
    await api.post('/api/Price', { productId: product.id, type: 'Recurring', amount: 100, currency: 'USD', interval: 'month' });
    await api.post('/api/Price', { productId: other.id, type: 'OneTime', amount: 200, currency: 'USD' });
    const forProduct = await api.get(`/api/Price?productId=${product.id}`);
    expect(forProduct.body.totalCount).toBe(2);
    expect(forProduct.body.data.every((p: { productId: string }) => p.productId === product.id)).toBe(true);
    const byAmount = await api.get('/api/Price?orderBy=amount&orderDirection=asc');
    expect(byAmount.body.data.map((p: { amount: number }) => p.amount)).toEqual([100, 200, 300]);
    expect((await api.get('/api/Price?type=Recurring')).body.totalCount).toBe(1);
    const paged = await api.get('/api/Price?pageSize=1&page=3');
    expect(paged.body).toMatchObject({ page: 3, pageSize: 1, totalCount: 3, hasMore: false });
    expect(paged.body.data).toHaveLength(1);
  });

  it('isolates prices between merchants', async () => {
    const owner = await withProduct();
    const stranger = await newMerchant();
    const { body: price } = await owner.api.post('/api/Price', { productId: owner.product.id, type: 'OneTime', amount: 1, currency: 'USD' });
    expect((await stranger.api.get(`/api/Price/${price.id}`)).status).toBe(404);
    expect((await stranger.api.put(`/api/Price/${price.id}`, { active: false })).status).toBe(404);
    expect((await stranger.api.get(`/api/Price/${price.id}/EntitlementPolicy`)).status).toBe(404);
    expect((await stranger.api.post(`/api/Price/${price.id}/EntitlementPolicy`, { allowed: 'Unlimited' })).status).toBe(404);
    expect((await stranger.api.get('/api/Price')).body.totalCount).toBe(0);
  });

  it('enforces authentication and scopes on every price endpoint', async () => {
    const { api, merchant, product } = await withProduct();
    const { body: price } = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 1, currency: 'USD' });
    await expectAuthFailures(merchant.id, 'GET', '/api/Price', 'prices:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/Price', 'prices:write', {});
    await expectAuthFailures(merchant.id, 'GET', `/api/Price/${price.id}`, 'prices:read');
    await expectAuthFailures(merchant.id, 'PUT', `/api/Price/${price.id}`, 'prices:write', { active: false });
    await expectAuthFailures(merchant.id, 'GET', `/api/Price/${price.id}/EntitlementPolicy`, 'entitlements:read');
    await expectAuthFailures(merchant.id, 'POST', `/api/Price/${price.id}/EntitlementPolicy`, 'entitlements:write', {});
  });
});

describe('/api/Price/{priceId}/EntitlementPolicy', () => {
  it('creates and lists policies', async () => {
    const { api, product } = await withProduct();
    const { body: price } = await api.post('/api/Price', { productId: product.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    const limited = await api.post(`/api/Price/${price.id}/EntitlementPolicy`, {
      feature: 'api_calls',
      allowed: 'Limited',
      limit: 10_000,
      creditGrantAmount: 500,
    });
    expect(limited.status).toBe(201);
    expect(limited.body).toMatchObject({
      priceId: price.id,
      feature: 'api_calls',
      allowed: 'Limited',
      limit: 10_000,
      limitAmount: null,
      creditGrantAmount: 500,
    });
    const sso = await api.post(`/api/Price/${price.id}/EntitlementPolicy`, { feature: 'sso', allowed: 'Unlimited' });
    expect(sso.status).toBe(201);
    const defaultFeature = await api.post(`/api/Price/${price.id}/EntitlementPolicy`, { allowed: 'Limited', limitAmount: 5000 });
    expect(defaultFeature.body.feature).toBe('default');
    const list = await api.get(`/api/Price/${price.id}/EntitlementPolicy?orderBy=feature&orderDirection=asc`);
    expect(list.body.totalCount).toBe(3);
    expect(list.body.data.map((p: { feature: string }) => p.feature)).toEqual(['api_calls', 'default', 'sso']);
  });

  it('rejects inconsistent limits and a second policy for the same feature', async () => {
    const { api, product } = await withProduct();
    const { body: price } = await api.post('/api/Price', { productId: product.id, type: 'OneTime', amount: 900, currency: 'USD' });
    const url = `/api/Price/${price.id}/EntitlementPolicy`;
    expect((await api.post(url, { allowed: 'Limited' })).body.errors[0].path).toBe('limit');
    expect((await api.post(url, { allowed: 'Unlimited', limit: 5 })).body.errors[0].path).toBe('limit');
    expect((await api.post(url, { allowed: 'Maybe' })).body.errors[0].path).toBe('allowed');
    expect((await api.post(url, { allowed: 'Denied', feature: 'Has Spaces' })).body.errors[0].path).toBe('feature');
    expect((await api.post(url, { allowed: 'Limited', limit: -3 })).status).toBe(400);
    expect((await api.post(url, { feature: 'export', allowed: 'Denied' })).status).toBe(201);
    const duplicate = await api.post(url, { feature: 'export', allowed: 'Unlimited' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('CONFLICT');
  });
});
