import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { authenticateAccessToken } from '@/lib/auth/sessions';
import { authorizeSeller } from '@/lib/auth/seller-access';
import type { Permission } from '@/lib/http/permissions';
import { call } from '../helpers/api';
import { CONSOLE_PERMISSIONS_BY_ROLE, TEAM_ROLES, expectKeyScopesOfRole, type TeamRole } from '../helpers/auth-matrix';
import { ik } from '../helpers/payments';
import { joinTeam, registerVerifiedSeller } from '../helpers/sessions';

/** An account with one member of every role; each entry is that member's access token and user id. */
async function teamOfEveryRole() {
  const owner = await registerVerifiedSeller();
  const members: Record<TeamRole, { accessToken: string; userId: string | undefined }> = {
    Owner: { accessToken: owner.tokens.accessToken, userId: undefined },
  } as never;
  for (const role of TEAM_ROLES.filter((r) => r !== 'Owner')) {
    const joined = await joinTeam(owner.tokens.accessToken, role);
    members[role] = { accessToken: joined.tokens.accessToken, userId: joined.userId };
  }
  return { owner, members };
}

/** A key the given seller user creates, and what it can do on the developer API. */
async function keyOf(accessToken: string, scopes: string[]) {
  const created = await call('POST', '/api/MerchantApiKey', { key: accessToken, body: { name: scopes.join(' '), scopes } });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; secret: string };
}

/** A succeeded card payment of 5,000 minor units, made with an Owner's key. */
async function paidPayment(ownerAccessToken: string) {
  const { secret } = await keyOf(ownerAccessToken, ['prices:write', 'products:write', 'payment_links:write']);
  const product = await call('POST', '/api/Product', { key: secret, body: { name: 'Role matrix mug' } });
  const price = await call('POST', '/api/Price', { key: secret, body: { productId: product.body.id, type: 'OneTime', amount: 5000, currency: 'USD' } });
  const checkout = await call('POST', '/api/Checkout', {
    key: secret,
    body: { priceId: price.body.id, customerEmail: 'buyer@example.com', tokenRef: 'tok_visa' },
    headers: ik(),
  });
  expect(checkout.status, checkout.text).toBe(201);
  return checkout.body.payment.id as string;
}

const refund = (key: string, paymentId: string, amount: number) => call('POST', `/api/Payment/${paymentId}/Refund`, { key, body: { amount }, headers: ik() });

/** How every console server action authorizes (app/(consoles)/merchant/session.ts, sellerAction). */
async function consoleAction(accessToken: string, permission: Permission) {
  const principal = await authenticateAccessToken(getDb(), { token: accessToken, accepted: ['merchant'] });
  return authorizeSeller(getDb(), principal, permission);
}

describe('what each role may give an API key, and do with money', () => {
  it('every role against key creation: a key carries only the scopes its creator’s role allows', async () => {
    const { members } = await teamOfEveryRole();
    for (const role of TEAM_ROLES) await expectKeyScopesOfRole(role, members[role].accessToken);
  }, 120_000);

  it('a Developer cannot give itself refunds (the issue’s case): refused with the scopes named, and nothing is created', async () => {
    const { owner, members } = await teamOfEveryRole();
    const developer = members.Developer.accessToken;
    const asked = await call('POST', '/api/MerchantApiKey', {
      key: developer,
      body: { name: 'refunds', scopes: ['products:read', 'refunds:write', 'payments:write', 'webhooks:write'] },
    });
    expect(asked.status).toBe(403);
    expect(asked.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(asked.body.scopes).toEqual(['refunds:write', 'payments:write']);
    expect(asked.body.detail).toContain("'refunds:write', 'payments:write'");
    expect(asked.body.errors).toEqual([{ path: 'scopes', message: expect.stringContaining('refunds:write') }]);
    expect((await call('GET', '/api/MerchantApiKey', { key: owner.tokens.accessToken })).body.totalCount).toBe(0);

    // What a Developer may make cannot move money.
    const paymentId = await paidPayment(owner.tokens.accessToken);
    const { secret } = await keyOf(developer, ['payments:read', 'webhooks:write']);
    expect((await call('GET', `/api/Payment/${paymentId}`, { key: secret })).status).toBe(200);
    const refused = await refund(secret, paymentId, 100);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'refunds:write' });
  }, 120_000);

  it('every role against the money actions of the console and the API', async () => {
    const { owner, members } = await teamOfEveryRole();
    for (const role of TEAM_ROLES) {
      for (const permission of ['refunds:create', 'disputes:respond', 'subscriptions:write', 'catalog:write', 'developers:write'] as const) {
        const attempt = consoleAction(members[role].accessToken, permission);
        if (CONSOLE_PERMISSIONS_BY_ROLE[role].includes(permission)) await expect(attempt, `${role} ${permission}`).resolves.toBeDefined();
        else await expect(attempt, `${role} ${permission}`).rejects.toMatchObject({ code: 'FORBIDDEN' });
      }
    }
    // Refunds over the API, with a key made by each role that may make one with refunds:write.
    const paymentId = await paidPayment(owner.tokens.accessToken);
    for (const role of ['Owner', 'Admin'] as const) {
      const { secret } = await keyOf(members[role].accessToken, ['refunds:write']);
      const answer = await refund(secret, paymentId, 100);
      expect(answer.status, `${role}'s key refunds: ${answer.text}`).toBe(201);
    }
  }, 120_000);

  it('a key stays bounded by its creator’s current role: lowered, its money scopes stop; raised, they work; removed, the key stops', async () => {
    const { owner, members } = await teamOfEveryRole();
    const admin = members.Admin;
    const paymentId = await paidPayment(owner.tokens.accessToken);
    const { id, secret } = await keyOf(admin.accessToken, ['refunds:write', 'payments:read']);
    const setRole = (role: string) => call('POST', `/api/MerchantTeam/${admin.userId}/Role`, { key: owner.tokens.accessToken, body: { role } });

    expect((await setRole('Developer')).status).toBe(200);
    const refused = await refund(secret, paymentId, 100);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.detail).toMatch(/holds the 'refunds:write' scope, but the role of the team member who created it \(Developer\) no longer allows it/);
    // Reads the Developer role allows still work; nothing was refunded.
    const payment = await call('GET', `/api/Payment/${paymentId}`, { key: secret });
    expect(payment.status).toBe(200);
    expect(payment.body.refunds).toHaveLength(0);

    expect((await setRole('Admin')).status).toBe(200);
    expect((await refund(secret, paymentId, 100)).status).toBe(201);

    expect((await call('POST', `/api/MerchantTeam/${admin.userId}/Remove`, { key: owner.tokens.accessToken })).status).toBe(204);
    expect((await call('GET', `/api/Payment/${paymentId}`, { key: secret })).status).toBe(401);
    const revoked = await call('GET', '/api/MerchantApiKey?revoked=true', { key: owner.tokens.accessToken });
    expect(revoked.body.data.map((key: { id: string }) => key.id)).toContain(id);
  }, 120_000);
});
