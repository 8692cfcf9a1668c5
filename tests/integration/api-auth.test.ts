import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { revokeApiKey } from '@/lib/auth/api-keys';
import { setMerchantStatus } from '@/lib/merchants/merchants';
import { call } from '../helpers/api';
import { keyWithScopes, newMerchant } from '../helpers/merchants';

describe('developer API authentication', () => {
  it('answers 401 UNAUTHENTICATED as problem+json without a credential', async () => {
    const answer = await call('GET', '/api/Product');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', title: expect.any(String), detail: expect.any(String) });
    expect(answer.body.requestId).toMatch(/^req_/);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
  });

  it('answers 401 for an unknown or malformed key and a non-bearer header', async () => {
    expect((await call('GET', '/api/Product', { key: 'sk_not_a_real_key' })).body.code).toBe('UNAUTHENTICATED');
    expect((await call('GET', '/api/Product', { key: 'garbage' })).status).toBe(401);
    const basic = await call('GET', '/api/Product', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
  });

  it('answers 403 WRONG_TOKEN_TYPE for a JWT', async () => {
    const jwt = await new SignJWT({ sub: 'mer_x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('merchant')
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('some-secret-of-sufficient-length-123'));
    const answer = await call('GET', '/api/Product', { key: jwt });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('WRONG_TOKEN_TYPE');
  });

  it('stops accepting a revoked key on the very next request', async () => {
    const { merchant, key, keyId } = await newMerchant();
    expect((await call('GET', '/api/Product', { key })).status).toBe(200);
    await revokeApiKey(getDb(), { merchantId: merchant.id, apiKeyId: keyId });
    const answer = await call('GET', '/api/Product', { key });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHENTICATED');
  });

  it("stops accepting a suspended merchant's keys at once", async () => {
    const { merchant, key } = await newMerchant();
    await setMerchantStatus(getDb(), merchant.id, 'suspended');
    expect((await call('GET', '/api/Customer', { key })).status).toBe(401);
    await setMerchantStatus(getDb(), merchant.id, 'active');
    expect((await call('GET', '/api/Customer', { key })).status).toBe(200);
  });

  it('answers 403 INSUFFICIENT_SCOPE naming the scope needed', async () => {
    const { merchant } = await newMerchant();
    const { api } = await keyWithScopes(merchant.id, ['customers:read']);
    const answer = await api.post('/api/Product', { name: 'Nope' });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(answer.body.requiredScope).toBe('products:write');
    expect(answer.body.detail).toContain('products:write');
    expect((await api.get('/api/Product')).body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('lets a write scope imply its read scope, and nothing more', async () => {
    const { merchant } = await newMerchant();
    const { api } = await keyWithScopes(merchant.id, ['products:write']);
    expect((await api.get('/api/Product')).status).toBe(200);
    expect((await api.post('/api/Product', { name: 'Ok' })).status).toBe(201);
    expect((await api.get('/api/Price')).status).toBe(403);
  });

  it('records when a key was last used', async () => {
    const { key, keyId } = await newMerchant();
    await call('GET', '/api/Product', { key });
    await expect.poll(async () => (await getDb().select().from(apiKeys).where(eq(apiKeys.id, keyId)))[0]?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('stores only a hash and a short prefix of each key', async () => {
    const { key, keyId } = await newMerchant();
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.secretHash).not.toContain(key);
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(row!.prefix)).toBe(true);
    expect(row!.prefix.length).toBeLessThan(16);
  });
});
