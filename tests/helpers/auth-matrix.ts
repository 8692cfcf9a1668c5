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

export const TEAM_ROLES = ['Owner', 'Admin', 'Developer', 'Support', 'ReadOnly'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const READ_SCOPES = SCOPES.filter((scope) => scope.endsWith(':read'));

/**
 * The scopes each role may give an API key, as docs/auth.md ("API keys and roles") states them:
 * written out here rather than computed from lib/, so the tests hold the code to the documented
 * policy. Support and Read-only create no keys at all (no `developers:write`).
 */
export const KEY_SCOPES_BY_ROLE: Record<TeamRole, readonly Scope[]> = {
  Owner: SCOPES,
  Admin: SCOPES,
  Developer: [...READ_SCOPES, 'webhooks:write'],
  Support: [],
  ReadOnly: [],
};

/** What a console server action needs, per role (docs/auth.md, "Team and roles"); Support refunds up to the account's limit. */
export const CONSOLE_PERMISSIONS_BY_ROLE: Record<TeamRole, readonly string[]> = {
  Owner: ['catalog:write', 'customers:write', 'subscriptions:write', 'refunds:create', 'disputes:respond', 'developers:write', 'team:manage', 'settings:write'],
  Admin: ['catalog:write', 'customers:write', 'subscriptions:write', 'refunds:create', 'disputes:respond', 'developers:write', 'team:manage', 'settings:write'],
  Developer: ['developers:write'],
  Support: ['customers:write', 'refunds:create'],
  ReadOnly: [],
};

/**
 * Asks for a key with each scope, one at a time, as `accessToken`'s user (POST /api/MerchantApiKey)
 * and checks the answer against the role's documented scopes: 201 for each allowed scope, 403
 * INSUFFICIENT_SCOPE naming the scope otherwise (403 FORBIDDEN for roles that make no keys).
 */
export async function expectKeyScopesOfRole(role: TeamRole, accessToken: string) {
  for (const scope of SCOPES) {
    const answer = await call('POST', '/api/MerchantApiKey', { key: accessToken, body: { name: `${role} ${scope}`, scopes: [scope] } });
    const what = `${role} creating a key with ${scope}`;
    if (KEY_SCOPES_BY_ROLE[role].includes(scope)) {
      expect(answer.status, `${what}: ${answer.text}`).toBe(201);
    } else if (KEY_SCOPES_BY_ROLE[role].length === 0) {
      expect(answer.status, what).toBe(403);
      expect(answer.body.code, what).toBe('FORBIDDEN');
    } else {
      expect(answer.status, what).toBe(403);
      expect(answer.body.code, what).toBe('INSUFFICIENT_SCOPE');
      expect(answer.body.scopes, what).toEqual([scope]);
    }
  }
}
