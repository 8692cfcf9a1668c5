import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { customers, idempotencyKeys } from '@/lib/db/schema';
import { apiRoute } from '@/lib/http/api-route';
import { defineOperation } from '@/lib/http/operation';
import { newMerchant } from '../helpers/merchants';
import { baseUrl } from '../helpers/api';

async function customerCount(merchantId: string) {
  const [row] = await getDb().select({ value: count() }).from(customers).where(eq(customers.merchantId, merchantId));
  return row!.value;
}

async function storedKeys(merchantId: string) {
  return getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchantId));
}

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed: true', async () => {
    const { api, merchant } = await newMerchant();
    const body = { email: 'ada@example.com', name: 'Ada' };
    const first = await api.post('/api/Customer', body, { 'Idempotency-Key': 'create-ada' });
    const second = await api.post('/api/Customer', body, { 'Idempotency-Key': 'create-ada' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await customerCount(merchant.id)).toBe(1);
  });

  it('answers 422 when the key comes back with a different body or endpoint', async () => {
    const { api } = await newMerchant();
    await api.post('/api/Customer', { name: 'One' }, { 'Idempotency-Key': 'k1' });
    const otherBody = await api.post('/api/Customer', { name: 'Two' }, { 'Idempotency-Key': 'k1' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherEndpoint = await api.post('/api/Product', { name: 'One' }, { 'Idempotency-Key': 'k1' });
    expect(otherEndpoint.status).toBe(422);
  });

  it('scopes keys per merchant', async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    expect((await a.api.post('/api/Customer', { name: 'A' }, { 'Idempotency-Key': 'shared' })).status).toBe(201);
    const other = await b.api.post('/api/Customer', { name: 'B' }, { 'Idempotency-Key': 'shared' });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const { api, merchant } = await newMerchant();
    const rawBody = JSON.stringify({ name: 'Slow' });
    // The row a request holds while it executes (see claimIdempotencyKey).
    const started = new Date();
    await getDb()
      .insert(idempotencyKeys)
      .values({
        merchantId: merchant.id,
        key: 'running',
        method: 'POST',
        path: '/api/Customer',
        bodyHash: (await import('@/lib/secrets')).sha256Hex(rawBody),
        state: 'in_progress',
        lockedAt: started,
        createdAt: started,
        expiresAt: new Date(started.getTime() + 86_400_000),
      });
    const duplicate = await api.post('/api/Customer', { name: 'Slow' }, { 'Idempotency-Key': 'running' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await customerCount(merchant.id)).toBe(0);
  });

  it('executes 50 concurrent identical requests exactly once', async () => {
    const { api, merchant } = await newMerchant();
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/api/Customer', { name: 'Once' }, { 'Idempotency-Key': 'fifty' })));
    expect(await customerCount(merchant.id)).toBe(1);
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 201 || s === 409)).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  });

  it('stores nothing for requests rejected before executing', async () => {
    const { api, merchant } = await newMerchant();
    const invalid = await api.post('/api/Customer', { email: 'not-an-email' }, { 'Idempotency-Key': 'bad-input' });
    expect(invalid.status).toBe(400);
    const unauthenticated = await fetch(`${baseUrl()}/api/Customer`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_wrong', 'Idempotency-Key': 'bad-auth' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(await storedKeys(merchant.id)).toHaveLength(0);
    // The same key may then be used for a valid request.
    expect((await api.post('/api/Customer', { email: 'ok@example.com' }, { 'Idempotency-Key': 'bad-input' })).status).toBe(201);
  });

  it('leaves the key free when the handler refuses the input (400), in one transaction or in phases', async () => {
    const { api, merchant } = await newMerchant();
    const past = new Date(Date.now() - 60_000).toISOString();
    const link = { name: 'Ticket', unitAmount: 500, currency: 'USD' };
    const refused = await api.post('/api/PaymentLink', { ...link, expiresAt: past }, { 'Idempotency-Key': 'link-1' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors[0].path).toBe('expiresAt');
    expect(await storedKeys(merchant.id)).toHaveLength(0);
    expect((await api.post('/api/PaymentLink', link, { 'Idempotency-Key': 'link-1' })).status).toBe(201);

    const price = (
      await api.post('/api/Price', { productId: (await api.post('/api/Product', { name: 'P' })).body.id, type: 'OneTime', amount: 900, currency: 'USD' })
    ).body;
    const checkout = { priceId: price.id, customerEmail: 'ik@example.com' };
    const unknownToken = await api.post('/api/Checkout', { ...checkout, tokenRef: 'tok_nope' }, { 'Idempotency-Key': 'pay-1' });
    expect(unknownToken.status, unknownToken.text).toBe(400);
    expect(unknownToken.body.errors[0].path).toBe('tokenRef');
    const paid = await api.post('/api/Checkout', { ...checkout, tokenRef: 'tok_visa' }, { 'Idempotency-Key': 'pay-1' });
    expect(paid.status, paid.text).toBe(201);
  });

  it('keeps storing outcomes: a decline (402) is replayed, not run again', async () => {
    const { api } = await newMerchant();
    const price = (
      await api.post('/api/Price', { productId: (await api.post('/api/Product', { name: 'P' })).body.id, type: 'OneTime', amount: 900, currency: 'USD' })
    ).body;
    const body = { priceId: price.id, customerEmail: 'declined@example.com', tokenRef: 'tok_declined' };
    const declined = await api.post('/api/Checkout', body, { 'Idempotency-Key': 'decline-1' });
    expect(declined.status, declined.text).toBe(402);
    const again = await api.post('/api/Checkout', body, { 'Idempotency-Key': 'decline-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(declined.text);
  });

  it('replays an executed failure too', async () => {
    const { api } = await newMerchant();
    await api.post('/api/Customer', { externalId: 'ext-1' });
    const first = await api.post('/api/Customer', { externalId: 'ext-1' }, { 'Idempotency-Key': 'dup' });
    expect(first.status).toBe(409);
    const again = await api.post('/api/Customer', { externalId: 'ext-1' }, { 'Idempotency-Key': 'dup' });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('forgets a key after 24 hours', async () => {
    const { api, merchant } = await newMerchant();
    await api.post('/api/Customer', { name: 'Day one' }, { 'Idempotency-Key': 'daily' });
    await getDb()
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(idempotencyKeys.merchantId, merchant.id), eq(idempotencyKeys.key, 'daily')));
    const later = await api.post('/api/Customer', { name: 'Day one' }, { 'Idempotency-Key': 'daily' });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await customerCount(merchant.id)).toBe(2);
  });

  it('rejects keys longer than 255 characters', async () => {
    const { api } = await newMerchant();
    const answer = await api.post('/api/Customer', { name: 'X' }, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
  });

  it('requires the header on endpoints marked IK', async () => {
    const { key } = await newMerchant();
    let executions = 0;
    const operation = defineOperation({
      id: 'testRequiredKey',
      method: 'POST',
      path: '/api/Test',
      tag: 'Test',
      summary: 'test',
      scope: 'customers:write',
      body: z.strictObject({ value: z.int() }),
      response: z.object({ value: z.int() }),
      idempotency: 'required',
    });
    const route = apiRoute(operation, async ({ body }) => {
      executions++;
      return { value: body.value };
    });
    const request = (headers: Record<string, string>) =>
      route(
        new Request('http://localhost/api/Test', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ value: 7 }),
        }),
        { params: Promise.resolve({}) },
      );
    const missing = await request({});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(executions).toBe(0);
    expect((await request({ 'Idempotency-Key': 'required-1' })).status).toBe(200);
    const replay = await request({ 'Idempotency-Key': 'required-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual({ value: 7 });
    expect(executions).toBe(1);
  });
});
