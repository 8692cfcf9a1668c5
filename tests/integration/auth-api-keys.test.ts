import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { registerSeller } from '../helpers/sessions';

describe('seller API key management (console API)', () => {
  it('creates a key with chosen scopes, returns the secret once, lists only the prefix', async () => {
    const { tokens } = await registerSeller();
    const created = await call('POST', '/api/MerchantApiKey', {
      key: tokens.accessToken,
      body: { name: 'Backend', scopes: ['products:write', 'customers:read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^sk_/);
    expect(created.body.secret.startsWith(created.body.prefix)).toBe(true);
    expect(created.body.scopes).toEqual(['products:write', 'customers:read']);

    const list = await call('GET', '/api/MerchantApiKey', { key: tokens.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: created.body.id, prefix: created.body.prefix, revokedAt: null });
    expect(list.text).not.toContain(created.body.secret);

    // The key has exactly its scopes on the developer API.
    const key = created.body.secret;
    expect((await call('POST', '/api/Product', { key, body: { name: 'Made with a console key' } })).status).toBe(201);
    expect((await call('GET', '/api/Customer', { key })).status).toBe(200);
    expect((await call('GET', '/api/Price', { key })).body.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('revokes a key: the very next developer-API call answers 401', async () => {
    const { tokens } = await registerSeller();
    const created = await call('POST', '/api/MerchantApiKey', { key: tokens.accessToken, body: { name: 'k', scopes: ['products:read'] } });
    const key = created.body.secret;
    expect((await call('GET', '/api/Product', { key })).status).toBe(200);
    const revoked = await call('POST', `/api/MerchantApiKey/${created.body.id}/Revoke`, { key: tokens.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await call('GET', '/api/Product', { key })).status).toBe(401);
    const revokedList = await call('GET', '/api/MerchantApiKey?revoked=true', { key: tokens.accessToken });
    expect(revokedList.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
  });

  it("answers 404 for another seller's key and leaves it working", async () => {
    const owner = await registerSeller();
    const other = await registerSeller();
    const created = await call('POST', '/api/MerchantApiKey', { key: owner.tokens.accessToken, body: { name: 'k', scopes: ['products:read'] } });
    const answer = await call('POST', `/api/MerchantApiKey/${created.body.id}/Revoke`, { key: other.tokens.accessToken });
    expect(answer.status).toBe(404);
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(row!.revokedAt).toBeNull();
    expect((await call('GET', '/api/MerchantApiKey', { key: other.tokens.accessToken })).body.totalCount).toBe(0);
  });

  it('validates scopes and name', async () => {
    const { tokens } = await registerSeller();
    const answer = await call('POST', '/api/MerchantApiKey', { key: tokens.accessToken, body: { name: '', scopes: ['everything'] } });
    expect(answer.status).toBe(400);
    const paths = answer.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain('name');
    expect(paths.some((p: string) => p.startsWith('scopes'))).toBe(true);
    const none = await call('POST', '/api/MerchantApiKey', { key: tokens.accessToken, body: { name: 'x', scopes: [] } });
    expect(none.status).toBe(400);
  });
});
