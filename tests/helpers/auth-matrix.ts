import { expect } from 'vitest';
import { SCOPES, type Scope } from '@/lib/http/scopes';
import { call } from './api';
import { keyWithScopes } from './merchants';

const FAKE_JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtZXJfeCIsImF1ZCI6Im1lcmNoYW50In0.c2lnbmF0dXJlLW5vdC1jaGVja2Vk';

/**
 * The auth failures every developer-API endpoint shares: no credential → 401, a JWT → 403
 * WRONG_TOKEN_TYPE, a key without the scope → 403 INSUFFICIENT_SCOPE.
 */
export async function expectAuthFailures(merchantId: string, method: string, path: string, scope: Scope, body?: unknown) {
  const anonymous = await call(method, path, { body });
  expect(anonymous.status, `${method} ${path} without a key`).toBe(401);
  expect(anonymous.body.code).toBe('UNAUTHENTICATED');

  const jwt = await call(method, path, { key: FAKE_JWT, body });
  expect(jwt.status, `${method} ${path} with a JWT`).toBe(403);
  expect(jwt.body.code).toBe('WRONG_TOKEN_TYPE');

  const otherScopes = SCOPES.filter((s) => s.split(':')[0] !== scope.split(':')[0]);
  const { key } = await keyWithScopes(merchantId, otherScopes);
  const unscoped = await call(method, path, { key, body });
  expect(unscoped.status, `${method} ${path} without ${scope}`).toBe(403);
  expect(unscoped.body.code).toBe('INSUFFICIENT_SCOPE');
  expect(unscoped.body.requiredScope).toBe(scope);
}
