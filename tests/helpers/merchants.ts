import crypto from 'node:crypto';
import { getDb } from '@/lib/db/client';
import { createMerchant } from '@/lib/merchants/merchants';
import { createApiKey } from '@/lib/auth/api-keys';
import { SCOPES, type Scope } from '@/lib/http/scopes';
import { client } from './api';

/** A fresh merchant per test file keeps tests independent of each other and of the demo data. */
export async function newMerchant(options: { scopes?: readonly Scope[] } = {}) {
  const suffix = crypto.randomBytes(6).toString('hex');
  const merchant = await createMerchant(getDb(), {
    email: `seller-${suffix}@example.com`,
    name: `Seller ${suffix}`,
    accountType: 'Business',
    password: 'correct horse battery staple',
  });
  const key = await createApiKey(getDb(), { merchantId: merchant.id, name: 'test', scopes: options.scopes ?? SCOPES });
  return { merchant, key: key.secret, keyId: key.id, api: client(key.secret) };
}

export async function keyWithScopes(merchantId: string, scopes: readonly Scope[]) {
  const key = await createApiKey(getDb(), { merchantId, name: `scoped ${scopes.join(',')}`, scopes });
  return { key: key.secret, keyId: key.id, api: client(key.secret) };
}
