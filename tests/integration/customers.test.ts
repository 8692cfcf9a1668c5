import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events, paymentMethods } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';

describe('/api/Customer', () => {
  it('creates a customer and records customer.created', async () => {
    const { api, merchant } = await newMerchant();
    const answer = await api.post('/api/Customer', {
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      externalId: 'user-42',
      metadata: { plan: 'pro' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ email: 'Ada@Example.com', name: 'Ada Lovelace', externalId: 'user-42', status: 'active', metadata: { plan: 'pro' } });
    expect(answer.body.id).toMatch(/^cus_/);
    const recorded = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.merchantId, merchant.id), eq(events.type, 'customer.created')));
    expect(recorded.map((e) => e.data.object)).toEqual([answer.body]);
  });

  it('creates a customer with no fields at all', async () => {
    const { api } = await newMerchant();
    const answer = await api.post('/api/Customer', {});
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ email: null, name: null, externalId: null, status: 'active', metadata: {} });
  });

  it('rejects invalid input with the field path', async () => {
    const { api } = await newMerchant();
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 42 }, 'email'],
      [{ status: 'deleted' }, 'status'],
      [{ metadata: ['a'] }, 'metadata'],
      [{ metadata: { count: 3 } }, 'metadata.count'],
      [{ name: '' }, 'name'],
      [{ nickname: 'x' }, 'nickname'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/Customer', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it('keeps externalId unique per merchant', async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    expect((await a.api.post('/api/Customer', { externalId: 'same' })).status).toBe(201);
    const duplicate = await a.api.post('/api/Customer', { externalId: 'same' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors[0].path).toBe('externalId');
    expect((await b.api.post('/api/Customer', { externalId: 'same' })).status).toBe(201);
  });

  it('updates only the fields sent, and null clears', async () => {
    const { api } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', { email: 'a@example.com', name: 'A', metadata: { k: 'v' } });
    const updated = await api.put(`/api/Customer/${customer.id}`, { name: null, status: 'archived' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ email: 'a@example.com', name: null, status: 'archived', metadata: { k: 'v' } });
    expect((await api.get(`/api/Customer/${customer.id}`)).body).toEqual(updated.body);
    expect((await api.put(`/api/Customer/${customer.id}`, { email: 'bad' })).status).toBe(400);
  });

  it('lists with paging, ordering and filters', async () => {
    const { api } = await newMerchant();
    await api.post('/api/Customer', { email: 'carol@example.com', name: 'Carol' });
    await api.post('/api/Customer', { email: 'alice@example.com', name: 'Alice', externalId: 'x-1' });
    await api.post('/api/Customer', { email: 'bob@example.com', name: 'Bob', status: 'archived' });
    const page = await api.get('/api/Customer?pageSize=2&orderBy=name&orderDirection=asc');
    expect(page.body).toMatchObject({ totalCount: 3, hasMore: true });
    expect(page.body.data.map((c: { name: string }) => c.name)).toEqual(['Alice', 'Bob']);
    expect((await api.get('/api/Customer?email=ALICE@example.com')).body.data[0].name).toBe('Alice');
    expect((await api.get('/api/Customer?externalId=x-1')).body.totalCount).toBe(1);
    expect((await api.get('/api/Customer?status=archived')).body.data[0].name).toBe('Bob');
  });

  it('filters by an inclusive creation window and validates list parameters', async () => {
    const { api } = await newMerchant();
    const { body: first } = await api.post('/api/Customer', { name: 'First' });
    const { body: second } = await api.post('/api/Customer', { name: 'Second' });
    const window = await api.get(`/api/Customer?createdFrom=${encodeURIComponent(second.createdAt)}&createdTo=${encodeURIComponent(second.createdAt)}`);
    expect(window.body.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    const before = await api.get(`/api/Customer?createdTo=${encodeURIComponent(first.createdAt)}`);
    expect(before.body.data.map((c: { id: string }) => c.id)).toEqual([first.id]);
    for (const query of [
      'page=0',
      'page=abc',
      'pageSize=0',
      'pageSize=101',
      'orderBy=secret',
      'orderDirection=up',
      'createdFrom=yesterday',
      `createdFrom=${encodeURIComponent(second.createdAt)}&createdTo=${encodeURIComponent(first.createdAt)}`,
      'unknown=1',
    ]) {
      const answer = await api.get(`/api/Customer?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
    const beyond = await api.get('/api/Customer?page=50');
    expect(beyond.body).toMatchObject({ data: [], totalCount: 2, hasMore: false });
  });

  it("answers 404 for another merchant's customer on every customer endpoint", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const { body: customer } = await owner.api.post('/api/Customer', { name: 'Private' });
    const base = `/api/Customer/${customer.id}`;
    const attempts = [
      stranger.api.get(base),
      stranger.api.put(base, { name: 'x' }),
      stranger.api.get(`${base}/CustomValue`),
      stranger.api.post(`${base}/CustomValue`, { key: 'k', value: 'v' }),
      stranger.api.put(`${base}/CustomValue`, { key: 'k', value: 'v' }),
      stranger.api.post(`${base}/EntitlementOverride`, { allowed: 'Denied' }),
      stranger.api.get(`${base}/PaymentMethod`),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
  });

  it('enforces authentication and scopes on every customer endpoint', async () => {
    const { api, merchant } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', {});
    const base = `/api/Customer/${customer.id}`;
    await expectAuthFailures(merchant.id, 'GET', '/api/Customer', 'customers:read');
    await expectAuthFailures(merchant.id, 'POST', '/api/Customer', 'customers:write', {});
    await expectAuthFailures(merchant.id, 'GET', base, 'customers:read');
    await expectAuthFailures(merchant.id, 'PUT', base, 'customers:write', {});
    await expectAuthFailures(merchant.id, 'GET', `${base}/CustomValue`, 'customers:read');
    await expectAuthFailures(merchant.id, 'POST', `${base}/CustomValue`, 'customers:write', { key: 'a', value: 'b' });
    await expectAuthFailures(merchant.id, 'PUT', `${base}/CustomValue`, 'customers:write', { key: 'a', value: 'b' });
    await expectAuthFailures(merchant.id, 'POST', `${base}/EntitlementOverride`, 'entitlements:write', { allowed: 'Denied' });
    await expectAuthFailures(merchant.id, 'GET', `${base}/PaymentMethod`, 'payments:read');
  });
});

describe('/api/Customer/{customerId}/CustomValue', () => {
  it('creates, lists and updates key/value pairs', async () => {
    const { api } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', {});
    const url = `/api/Customer/${customer.id}/CustomValue`;
    const created = await api.post(url, { key: 'company_size', value: '50' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key: 'company_size', value: '50' });
    await api.post(url, { key: 'industry', value: 'retail' });
    expect((await api.post(url, { key: 'industry', value: 'again' })).status).toBe(409);
    const updated = await api.put(url, { key: 'company_size', value: '75' });
    expect(updated.status).toBe(200);
    expect(updated.body.value).toBe('75');
    expect((await api.put(url, { key: 'missing', value: 'x' })).status).toBe(404);
    const list = await api.get(`${url}?orderBy=key&orderDirection=asc`);
    expect(list.body.data.map((v: { key: string; value: string }) => [v.key, v.value])).toEqual([
      ['company_size', '75'],
      ['industry', 'retail'],
    ]);
    expect((await api.get(`${url}?pageSize=1`)).body).toMatchObject({ totalCount: 2, hasMore: true });
  });

  it('validates keys and values', async () => {
    const { api } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', {});
    const url = `/api/Customer/${customer.id}/CustomValue`;
    expect((await api.post(url, { key: 'has space', value: 'x' })).body.errors[0].path).toBe('key');
    expect((await api.post(url, { key: 'k', value: 5 })).body.errors[0].path).toBe('value');
    expect((await api.post(url, { key: 'k' })).body.errors[0].path).toBe('value');
    expect((await api.post(url, { key: 'k', value: 'x'.repeat(1001) })).status).toBe(400);
  });
});

describe('/api/Customer/{customerId}/EntitlementOverride', () => {
  it('creates then replaces the override of a feature and records entitlement.changed', async () => {
    const { api, merchant } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', {});
    const url = `/api/Customer/${customer.id}/EntitlementOverride`;
    const created = await api.post(url, { feature: 'seats', allowed: 'Limited', limit: 5 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ customerId: customer.id, feature: 'seats', allowed: 'Limited', limit: 5, limitAmount: null });
    const replaced = await api.post(url, { feature: 'seats', allowed: 'Unlimited' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, allowed: 'Unlimited', limit: null });
    expect((await api.post(url, { allowed: 'Limited' })).status).toBe(400);
    const changes = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.merchantId, merchant.id), eq(events.type, 'entitlement.changed')));
    expect(changes).toHaveLength(2);
  });
});

describe('/api/Customer/{customerId}/PaymentMethod', () => {
  it('lists saved references without card numbers, hiding detached ones', async () => {
    const { api, merchant } = await newMerchant();
    const { body: customer } = await api.post('/api/Customer', {});
    const url = `/api/Customer/${customer.id}/PaymentMethod`;
    expect((await api.get(url)).body).toMatchObject({ data: [], totalCount: 0 });
    const saved = { merchantId: merchant.id, customerId: customer.id, processorToken: 'tok_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
    await getDb()
      .insert(paymentMethods)
      .values([
        { id: 'pm_test_active', ...saved, isDefault: true },
        { id: 'pm_test_detached', ...saved, detachedAt: new Date() },
      ]);
    const list = await api.get(url);
    expect(list.body.totalCount).toBe(1);
    expect(list.body.data[0]).toEqual({
      id: 'pm_test_active',
      customerId: customer.id,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      isDefault: true,
      processor: { name: 'sandbox', mode: 'test', reference: null },
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain('tok_visa');
  });
});
