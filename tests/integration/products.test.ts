import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';

describe('/api/Product', () => {
  it('creates a product and records product.created in the same transaction', async () => {
    const { api, merchant } = await newMerchant();
    const created = await api.post('/api/Product', { name: 'Pro plan', description: 'For teams', metadata: { tier: 'pro' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Pro plan', description: 'For teams', active: true, metadata: { tier: 'pro' } });
    expect(created.body.id).toMatch(/^prod_[0-9A-Z]{26}$/);
    const [event] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.merchantId, merchant.id), eq(events.type, 'product.created')));
    expect(event!.id).toMatch(/^evt_/);
    expect(event!.data.object).toEqual(created.body);
  });

  it('retrieves and updates only the fields sent', async () => {
    const { api } = await newMerchant();
    const { body: product } = await api.post('/api/Product', { name: 'Basic', metadata: { a: '1' } });
    expect((await api.get(`/api/Product/${product.id}`)).body).toEqual(product);
    const updated = await api.put(`/api/Product/${product.id}`, { active: false, description: 'Retired' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Basic', active: false, description: 'Retired', metadata: { a: '1' } });
    expect(new Date(updated.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(product.updatedAt).getTime());
  });

  it('rejects invalid input with the field path', async () => {
    const { api } = await newMerchant();
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', active: 'yes' }, 'active'],
      [{ name: 'x', metadata: { nested: { a: 1 } } }, 'metadata.nested'],
      [{ name: 'x', metadata: { k: 'v'.repeat(501) } }, 'metadata.k'],
      [{ name: 'x', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ name: 'x', price: 5 }, 'price'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/Product', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { key } = await newMerchant();
    const answer = await call('POST', '/api/Product', { key, rawBody: '{not json', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('body');
  });

  it("answers 404 for another merchant's product, never 403", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const { body: product } = await owner.api.post('/api/Product', { name: 'Mine' });
    expect((await stranger.api.get(`/api/Product/${product.id}`)).status).toBe(404);
    const update = await stranger.api.put(`/api/Product/${product.id}`, { name: 'Stolen' });
    expect(update.status).toBe(404);
    expect(update.body.code).toBe('NOT_FOUND');
    expect((await owner.api.get(`/api/Product/${product.id}`)).body.name).toBe('Mine');
    expect((await stranger.api.get('/api/Product')).body.totalCount).toBe(0);
  });

  it('lists with paging, ordering and filters', async () => {
    const { api } = await newMerchant();
    for (const name of ['Charlie', 'Alpha', 'Bravo']) await api.post('/api/Product', { name });
    await api.post('/api/Product', { name: 'Delta', active: false });
    const first = await api.get('/api/Product?pageSize=2');
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, totalCount: 4, hasMore: true });
    expect(first.body.data.map((p: { name: string }) => p.name)).toEqual(['Delta', 'Bravo']);
    const second = await api.get('/api/Product?pageSize=2&page=2');
    expect(second.body.hasMore).toBe(false);
    expect(second.body.data.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Charlie']);
    const byName = await api.get('/api/Product?orderBy=name&orderDirection=asc');
    expect(byName.body.data.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect((await api.get('/api/Product?active=false')).body.data.map((p: { name: string }) => p.name)).toEqual(['Delta']);
  });

  it('enforces authentication and scopes on every product endpoint', async () => {
    const { api, merchant } = await newMerchant();
    const { body: product } = await api.post('/api/Product', { name: 'Guarded' });
    await expectAuthFailures(merchant.id, 'GET', '/api/Product', 'products:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/Product', 'products:write', { name: 'x' });
    await expectAuthFailures(merchant.id, 'GET', `/api/Product/${product.id}`, 'products:read');
    await expectAuthFailures(merchant.id, 'PUT', `/api/Product/${product.id}`, 'products:write', { name: 'x' });
  });
});
