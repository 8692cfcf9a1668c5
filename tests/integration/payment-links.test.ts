import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { paymentLinks } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { adHocLink, eventsOf, oneTimePrice } from '../helpers/payments';

describe('/api/PaymentLink', () => {
  it('creates a link for a price with a public token and URL, and records payment_link.created', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1999, 'USD', 'Poster');
    const created = await api.post('/api/PaymentLink', { priceId: price.id, quantity: 2, metadata: { campaign: 'spring' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'active',
      priceId: price.id,
      name: 'Poster',
      description: 'Poster description',
      unitAmount: 1999,
      amount: 3998,
      currency: 'USD',
      quantity: 2,
      singleUse: false,
      maxCompletions: null,
      completionCount: 0,
      metadata: { campaign: 'spring' },
    });
    expect(created.body.id).toMatch(/^plink_/);
    expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(created.body.url).toMatch(new RegExp(`/pay/${created.body.token}$`));
    const [event] = await eventsOf(merchant.id, 'payment_link.created');
    expect(event!.data.object).toEqual(created.body);
    expect((await api.get(`/api/PaymentLink/${created.body.id}`)).body).toEqual(created.body);
  });

  it('creates ad hoc links from unitAmount or amount, in the currency given', async () => {
    const { api } = await newMerchant();
    const byUnit = await adHocLink(api, { unitAmount: 1500, currency: 'jpy', quantity: 3 });
    expect(byUnit).toMatchObject({ priceId: null, unitAmount: 1500, amount: 4500, currency: 'JPY' });
    const byAmount = await adHocLink(api, { unitAmount: undefined, amount: 9000, quantity: 3, currency: 'KWD' });
    expect(byAmount).toMatchObject({ unitAmount: 3000, amount: 9000, currency: 'KWD' });
    const dark = await api.post('/api/CheckoutDesign', { displayName: 'Dark', brandColor: '#111827' });
    const options = await adHocLink(api, {
      singleUse: true,
      expiresAt: '2099-01-01T00:00:00Z',
      successUrl: 'https://shop.example.com/thanks',
      designId: dark.body.id,
      description: 'One hour',
    });
    expect(options).toMatchObject({
      singleUse: true,
      maxCompletions: 1,
      expiresAt: '2099-01-01T00:00:00.000Z',
      successUrl: 'https://shop.example.com/thanks',
      designId: dark.body.id,
      description: 'One hour',
    });
  });

  it('rejects invalid bodies with the field path', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 100);
    const cases: [unknown, string][] = [
      [{}, 'unitAmount'],
      [{ unitAmount: 100, name: 'x' }, 'currency'],
      [{ unitAmount: 100, currency: 'USD' }, 'name'],
      [{ unitAmount: 100, currency: 'XXY', name: 'x' }, 'currency'],
      [{ unitAmount: -1, currency: 'USD', name: 'x' }, 'unitAmount'],
      [{ unitAmount: 1.5, currency: 'USD', name: 'x' }, 'unitAmount'],
      [{ amount: 10, quantity: 3, currency: 'USD', name: 'x' }, 'amount'],
      [{ amount: 10, unitAmount: 4, quantity: 2, currency: 'USD', name: 'x' }, 'amount'],
      [{ priceId: price.id, unitAmount: 5 }, 'unitAmount'],
      [{ priceId: price.id, quantity: 0 }, 'quantity'],
      [{ priceId: price.id, singleUse: true, maxCompletions: 2 }, 'maxCompletions'],
      [{ priceId: price.id, successUrl: 'javascript:alert(1)' }, 'successUrl'],
      [{ priceId: price.id, expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ priceId: price.id, token: 'mine' }, 'token'],
      [{ unitAmount: 2_000_000_000, quantity: 2, currency: 'USD', name: 'x' }, 'quantity'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/PaymentLink', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const unknownPrice = await api.post('/api/PaymentLink', { priceId: 'price_nope' });
    expect(unknownPrice.status).toBe(404);
    expect(unknownPrice.body.errors[0].path).toBe('priceId');
  });

  it('updates only the updatable fields', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api);
    const light = await api.post('/api/CheckoutDesign', { displayName: 'Light', brandColor: '#1d4ed8' });
    const updated = await api.put(`/api/PaymentLink/${link.id}`, {
      name: 'Two hours',
      quantity: 2,
      maxCompletions: 5,
      successUrl: 'https://example.com/ok',
      designId: light.body.id,
      expiresAt: '2098-05-05T00:00:00Z',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Two hours', quantity: 2, amount: 10000, maxCompletions: 5, designId: light.body.id });
    const cleared = await api.put(`/api/PaymentLink/${link.id}`, { expiresAt: null, successUrl: null, maxCompletions: null });
    expect(cleared.body).toMatchObject({ expiresAt: null, successUrl: null, maxCompletions: null, name: 'Two hours' });
    for (const field of ['unitAmount', 'currency', 'priceId', 'metadata', 'singleUse']) {
      const answer = await api.put(`/api/PaymentLink/${link.id}`, { [field]: field === 'singleUse' ? true : 'x' });
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors[0].path).toBe(field);
    }
  });

  it('follows the state machine: active ⇄ disabled, archived is final', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api);
    const post = (action: string) => api.post(`/api/PaymentLink/${link.id}/${action}`);
    expect((await post('Enable')).status).toBe(409);
    const disabled = await post('Disable');
    expect(disabled.status).toBe(200);
    expect(disabled.body.status).toBe('disabled');
    const again = await post('Disable');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect((await post('Enable')).body.status).toBe('active');
    expect((await post('Archive')).body.status).toBe('archived');
    for (const action of ['Archive', 'Enable', 'Disable']) {
      const answer = await post(action);
      expect(answer.status, action).toBe(409);
      expect(answer.body.code).toBe('INVALID_STATE');
    }
    expect((await api.put(`/api/PaymentLink/${link.id}`, { name: 'x' })).status).toBe(409);

    const copy = await post('Duplicate');
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ status: 'active', name: link.name, unitAmount: link.unitAmount, completionCount: 0 });
    expect(copy.body.id).not.toBe(link.id);
    expect(copy.body.token).not.toBe(link.token);
    expect(await eventsOf(merchant.id, 'payment_link.created')).toHaveLength(2);
  });

  it('reports expired links, which can be neither enabled nor disabled', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { expiresAt: '2099-01-01T00:00:00Z' });
    await getDb()
      .update(paymentLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentLinks.id, link.id));
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body.status).toBe('expired');
    expect((await api.post(`/api/PaymentLink/${link.id}/Disable`)).status).toBe(409);
    expect((await api.get('/api/PaymentLink?status=expired')).body.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect((await api.get('/api/PaymentLink?status=active')).body.totalCount).toBe(0);
    const copy = await api.post(`/api/PaymentLink/${link.id}/Duplicate`);
    expect(copy.body).toMatchObject({ status: 'active', expiresAt: null });
  });

  it('lists with paging, ordering and filters', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 700);
    await adHocLink(api, { name: 'Bravo' });
    await adHocLink(api, { name: 'Alpha' });
    const fromPrice = await api.post('/api/PaymentLink', { priceId: price.id });
    const disabled = await adHocLink(api, { name: 'Charlie' });
    await api.post(`/api/PaymentLink/${disabled.id}/Disable`);
    const page = await api.get('/api/PaymentLink?pageSize=2&orderBy=name&orderDirection=asc');
    expect(page.body).toMatchObject({ totalCount: 4, hasMore: true, page: 1, pageSize: 2 });
    expect(page.body.data.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'Bravo']);
    expect((await api.get('/api/PaymentLink?status=disabled')).body.data.map((l: { id: string }) => l.id)).toEqual([disabled.id]);
    expect((await api.get(`/api/PaymentLink?priceId=${price.id}`)).body.data.map((l: { id: string }) => l.id)).toEqual([fromPrice.body.id]);
    expect((await api.get('/api/PaymentLink?status=nope')).status).toBe(400);
  });

  it("answers 404 for another merchant's link and enforces scopes", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const link = await adHocLink(owner.api);
    for (const path of ['', '/Archive', '/Disable', '/Enable', '/Duplicate']) {
      const answer = path ? await stranger.api.post(`/api/PaymentLink/${link.id}${path}`) : await stranger.api.get(`/api/PaymentLink/${link.id}`);
      expect(answer.status, path).toBe(404);
    }
    expect((await stranger.api.put(`/api/PaymentLink/${link.id}`, { name: 'x' })).status).toBe(404);
    const id = owner.merchant.id;
    await expectAuthFailures(id, 'GET', '/api/PaymentLink', 'payment_links:read');
    await expectAuthFailures(id, 'POST', '/api/PaymentLink', 'payment_links:write', { name: 'x', unitAmount: 1, currency: 'USD' });
    await expectAuthFailures(id, 'GET', `/api/PaymentLink/${link.id}`, 'payment_links:read');
    await expectAuthFailures(id, 'PUT', `/api/PaymentLink/${link.id}`, 'payment_links:write', { name: 'x' });
    for (const action of ['Archive', 'Disable', 'Enable', 'Duplicate']) {
      await expectAuthFailures(id, 'POST', `/api/PaymentLink/${link.id}/${action}`, 'payment_links:write');
    }
  });
});
