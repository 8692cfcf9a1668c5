import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { call } from '../helpers/api';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventsOf, ik, oneTimePrice } from '../helpers/payments';

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function customer(api: Api) {
  const answer = await api.post('/api/Customer', { email: `u-${Math.random().toString(36).slice(2)}@example.com` });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

async function limited(api: Api, customerId: string, feature: string, limit: number) {
  const answer = await api.post(`/api/Customer/${customerId}/EntitlementOverride`, { feature, allowed: 'Limited', limit });
  expect(answer.status, answer.text).toBe(201);
}

async function grant(api: Api, customerId: string, body: Record<string, unknown>) {
  const answer = await api.post(`/api/Customer/${customerId}/CreditGrant`, { reason: 'test', ...body }, ik());
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function entitlement(api: Api, customerId: string, feature: string) {
  const answer = await api.get(`/api/Customer/${customerId}/Entitlement`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.find((e: { feature: string }) => e.feature === feature);
}

describe('POST /api/Usage', () => {
  it('records usage (201), answers a repeated id with the original (200), and refuses another body with it (409)', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await customer(api);
    await limited(api, customerId, 'messages', 10);
    const first = await api.post('/api/Usage', { customerId, feature: 'messages', quantity: 3, id: 'm-1', properties: { model: 'small' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.usage).toMatchObject({ externalId: 'm-1', customerId, feature: 'messages', quantity: 3, creditsUsed: 0, reversedAt: null });
    expect(first.body.usage.id).toMatch(/^usg_/);
    expect(first.body.entitlement).toMatchObject({
      feature: 'messages',
      access: 'Limited',
      limit: 10,
      used: 3,
      remaining: 7,
      allowed: true,
      source: { type: 'override' },
    });
    const again = await api.post('/api/Usage', { customerId, feature: 'messages', quantity: 3, id: 'm-1', properties: { model: 'small' } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.usage.id).toBe(first.body.usage.id);
    expect(again.body.entitlement.used).toBe(3);
    const different = await api.post('/api/Usage', { customerId, feature: 'messages', quantity: 4, id: 'm-1' });
    expect(different.status).toBe(409);
    expect(different.body.code).toBe('CONFLICT');
    expect(await eventsOf(merchant.id, 'usage.recorded')).toHaveLength(1);
  });

  it('never refuses a fact: usage beyond the limit is counted, and entitlement.exhausted fires once per period', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await customer(api);
    await limited(api, customerId, 'messages', 2);
    for (let i = 0; i < 4; i++) expect((await api.post('/api/Usage', { customerId, feature: 'messages' })).status).toBe(201);
    expect(await entitlement(api, customerId, 'messages')).toMatchObject({ used: 4, remaining: 0, allowed: false });
    const exhausted = await eventsOf(merchant.id, 'entitlement.exhausted');
    expect(exhausted).toHaveLength(1);
    expect(exhausted[0]!.data.object).toMatchObject({ customerId, feature: 'messages', limit: 2, used: 2, reached: 'limit' });
  });

  it('validates input, 404s another merchant’s customer, and checks the key', async () => {
    const { api, merchant } = await newMerchant();
    const stranger = await newMerchant();
    const customerId = await customer(stranger.api);
    expect((await api.post('/api/Usage', { customerId, feature: 'messages' })).status).toBe(404);
    const bad = await api.post('/api/Usage', { customerId, feature: 'Bad Feature', quantity: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['feature', 'quantity']);
    await expectAuthFailures(merchant.id, 'POST', '/api/Usage', 'entitlements:write', { customerId, feature: 'messages' });
    await expectAuthFailures(merchant.id, 'GET', `/api/Customer/${customerId}/Entitlement`, 'entitlements:read');
    expect((await call('GET', '/api/Usage')).status).toBe(401);
  });
});

describe('POST /api/Customer/{customerId}/Entitlement/Check', () => {
  it('200 concurrent consumes against a limit of 100: exactly 100 allowed and one entitlement.exhausted', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await customer(api);
    await limited(api, customerId, 'messages', 100);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', consume: true })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.allowed)).toHaveLength(100);
    expect(answers.filter((a) => a.body.allowed).every((a) => a.body.usage?.id)).toBe(true);
    expect(answers.filter((a) => !a.body.allowed).every((a) => a.body.usage === null)).toBe(true);
    expect(await entitlement(api, customerId, 'messages')).toMatchObject({ used: 100, remaining: 0, allowed: false });
    expect(await eventsOf(merchant.id, 'entitlement.exhausted')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'usage.recorded')).toHaveLength(100);
  });

  it('200 concurrent consumes against a credit balance of 100: never below zero, credit.low and credit.exhausted once', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await customer(api);
    await grant(api, customerId, { feature: 'tokens', amount: 100 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'tokens', consume: true })),
    );
    expect(answers.filter((a) => a.body.allowed)).toHaveLength(100);
    const balance = await api.get(`/api/Customer/${customerId}/CreditBalance`);
    expect(balance.body.data).toEqual([]);
    expect(await entitlement(api, customerId, 'tokens')).toBeUndefined();
    expect(await eventsOf(merchant.id, 'credit.low')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'credit.exhausted')).toHaveLength(1);
    const denied = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'tokens' });
    expect(denied.body).toMatchObject({ allowed: false, access: 'None', creditBalance: 0, remaining: 0 });
  });

  it('uses the limit first, then credits from the grant that expires first; Check without consume changes nothing', async () => {
    const { api } = await newMerchant();
    const customerId = await customer(api);
    await limited(api, customerId, 'messages', 2);
    const later = await grant(api, customerId, { feature: 'messages', amount: 5, expiresAt: '2099-01-01T00:00:00Z' });
    const sooner = await grant(api, customerId, { feature: 'messages', amount: 2, expiresAt: '2098-01-01T00:00:00Z' });
    const never = await grant(api, customerId, { feature: 'messages', amount: 1 });
    const peek = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity: 10 });
    expect(peek.body).toMatchObject({ allowed: true, remaining: 10, usage: null });
    const tooMuch = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity: 11, consume: true });
    expect(tooMuch.body).toMatchObject({ allowed: false, usage: null, used: 0 });
    const used = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity: 5, consume: true, id: 'chat-1' });
    expect(used.body).toMatchObject({ allowed: true, used: 5, creditBalance: 5, remaining: 5, usage: { creditsUsed: 3 } });
    const grants = (await api.get(`/api/Customer/${customerId}/CreditBalance`)).body.data[0].grants;
    expect(grants.map((g: { id: string; remaining: number }) => [g.id, g.remaining])).toEqual([
      [later.id, 4],
      [never.id, 1],
    ]);
    expect(sooner.remaining).toBe(2);
    const repeat = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity: 5, consume: true, id: 'chat-1' });
    expect(repeat.body).toMatchObject({ allowed: true, duplicate: true, used: 5, usage: { id: used.body.usage.id } });
  });

  it('Denied is denied even with credits; an override wins over a one-time purchase policy', async () => {
    const { api } = await newMerchant();
    const customerId = await customer(api);
    const pack = await oneTimePrice(api, 900, 'USD', 'Credit pack');
    await api.post(`/api/Price/${pack.id}/EntitlementPolicy`, { feature: 'images', allowed: 'Limited', limit: 3, creditGrantAmount: 50 });
    const bought = await api.post('/api/Checkout', { priceId: pack.id, customerId, tokenRef: 'tok_visa' }, ik());
    expect(bought.status, bought.text).toBe(201);
    expect(await entitlement(api, customerId, 'images')).toMatchObject({
      access: 'Limited',
      limit: 3,
      creditBalance: 50,
      remaining: 53,
      periodStart: null,
      source: { type: 'purchase' },
    });
    await api.post(`/api/Customer/${customerId}/EntitlementOverride`, { feature: 'images', allowed: 'Denied' });
    const check = await api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'images', consume: true });
    expect(check.body).toMatchObject({ allowed: false, access: 'Denied', source: { type: 'override' }, usage: null });
  });
});

describe('Deduplication across Batch and single', () => {
  it('1,000 records sent twice (concurrently, through Batch and single) are counted once', async () => {
    const { api, merchant } = await newMerchant();
    const customers = [await customer(api), await customer(api)];
    const records = Array.from({ length: 1000 }, (_, i) => ({ id: `evt-${i}`, customerId: customers[i % 2]!, feature: 'api_calls', quantity: 2 }));
    const singles = records.slice(0, 100).map((record) => api.post('/api/Usage', record));
    const batches = [records.slice(0, 500), records.slice(500), records.slice(250, 750)].map((chunk) => api.post('/api/Usage/Batch', { records: chunk }));
    const [first, second, third] = await Promise.all(batches);
    const singleAnswers = await Promise.all(singles);
    for (const batch of [first!, second!, third!]) expect(batch.status, batch.text).toBe(200);
    expect(singleAnswers.every((a) => a.status === 201 || a.status === 200)).toBe(true);
    const again = await api.post('/api/Usage/Batch', { records: records.slice(0, 1000) });
    expect(again.body).toMatchObject({ recorded: 0, duplicates: 1000, failed: 0 });
    const recorded = [first!, second!, third!].reduce((sum, b) => sum + b.body.recorded, 0) + singleAnswers.filter((a) => a.status === 201).length;
    expect(recorded).toBe(1000);
    const summary = await api.get('/api/Usage/Summary?feature=api_calls&groupBy=period');
    expect(summary.body.data).toEqual([expect.objectContaining({ feature: 'api_calls', key: 'lifetime', quantity: 2000, records: 1000 })]);
    expect(await eventsOf(merchant.id, 'usage.recorded')).toHaveLength(1000);
    const list = await api.get(`/api/Usage?customerId=${customers[0]}&pageSize=5`);
    expect(list.body).toMatchObject({ totalCount: 500, hasMore: true });
    expect(list.body.data).toHaveLength(5);
  });

  it('the same producer id through Usage and Check with consume at once, 60 times: never a 500, each counted once', async () => {
    const { api, merchant } = await newMerchant();
    const customers = [await customer(api), await customer(api), await customer(api)];
    for (const customerId of customers) await limited(api, customerId, 'messages', 1000);
    // Recording and consuming lock the customer's meter and insert the usage row: in opposite
    // orders, one waits for the other's row while holding what the other waits for (a deadlock).
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const customerId = customers[i % customers.length]!;
        const id = `same-${i}`;
        return Promise.all([
          api.post('/api/Usage', { customerId, feature: 'messages', id }),
          api.post(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', consume: true, id }),
        ]);
      }),
    );
    const failed = answers.flat().filter((answer) => answer.status >= 500);
    expect(failed.map((answer) => answer.text)).toEqual([]);
    for (const [recorded, checked] of answers) {
      expect([200, 201]).toContain(recorded!.status);
      expect(checked!.status, checked!.text).toBe(200);
      expect(checked!.body.usage.id).toBe(recorded!.body.usage.id);
    }
    expect(answers.filter(([recorded, checked]) => (recorded!.status === 201) === checked!.body.duplicate)).toHaveLength(60);
    for (const customerId of customers) expect(await entitlement(api, customerId, 'messages')).toMatchObject({ used: 20 });
    expect(await eventsOf(merchant.id, 'usage.recorded')).toHaveLength(60);
  });

  it('answers each record of a batch: new, same, different body, unknown customer', async () => {
    const { api } = await newMerchant();
    const customerId = await customer(api);
    await api.post('/api/Usage', { customerId, feature: 'calls', id: 'a' });
    const answer = await api.post('/api/Usage/Batch', {
      records: [
        { customerId, feature: 'calls', id: 'a' },
        { customerId, feature: 'calls', id: 'a', quantity: 5 },
        { customerId, feature: 'calls', id: 'b' },
        { customerId: 'cus_nope', feature: 'calls', id: 'c' },
        { customerId, feature: 'calls', id: 'b' },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((item: { status: number }) => item.status)).toEqual([200, 409, 201, 404, 200]);
    const tooMany = await api.post('/api/Usage/Batch', { records: Array.from({ length: 1001 }, (_, i) => ({ customerId, id: `x${i}` })) });
    expect(tooMany.status).toBe(400);
  });
});

describe('POST /api/Usage/{usageId}/Reverse', () => {
  it('gives back units and credits; a second reversal is refused', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await customer(api);
    await limited(api, customerId, 'messages', 1);
    await grant(api, customerId, { feature: 'messages', amount: 10 });
    const usage = (await api.post('/api/Usage', { customerId, feature: 'messages', quantity: 4 })).body.usage;
    expect(usage.creditsUsed).toBe(3);
    expect(await entitlement(api, customerId, 'messages')).toMatchObject({ used: 4, creditBalance: 7 });
    expect((await api.post(`/api/Usage/${usage.id}/Reverse`)).status).toBe(400);
    const key = ik();
    const reversed = await api.post(`/api/Usage/${usage.id}/Reverse`, undefined, key);
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body.reversedAt).not.toBeNull();
    expect((await api.post(`/api/Usage/${usage.id}/Reverse`, undefined, key)).headers.get('idempotent-replayed')).toBe('true');
    expect(await entitlement(api, customerId, 'messages')).toMatchObject({ used: 0, creditBalance: 10, remaining: 11 });
    const twice = await api.post(`/api/Usage/${usage.id}/Reverse`, undefined, ik());
    expect(twice.status).toBe(409);
    expect(await eventsOf(merchant.id, 'usage.reversed')).toHaveLength(1);
    const stranger = await newMerchant();
    expect((await stranger.api.post(`/api/Usage/${usage.id}/Reverse`, undefined, ik())).status).toBe(404);
  });
});
