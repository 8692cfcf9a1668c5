import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { getDb } from '@/lib/db/client';
import { authenticateAccessToken } from '@/lib/auth/sessions';
import { assertSellerMayRefund, authorizeSeller } from '@/lib/auth/seller-access';
import { setSupportRefundLimit } from '@/lib/merchants/merchants';
import { call } from '../helpers/api';
import { PASSWORD, freshIp, joinTeam, latestLinkToken, registerSeller, registerVerifiedSeller, uniqueEmail } from '../helpers/sessions';

const identity = (accessToken: string) => call('GET', '/api/Auth/Identity', { key: accessToken });
const team = (accessToken: string) => call('GET', '/api/MerchantTeam', { key: accessToken });
const invite = (accessToken: string, email: string, role: string) => call('POST', '/api/MerchantTeam/Invitation', { key: accessToken, body: { email, role } });
const remove = (accessToken: string, userId: string) => call('POST', `/api/MerchantTeam/${userId}/Remove`, { key: accessToken });
const setRole = (accessToken: string, userId: string, role: string) => call('POST', `/api/MerchantTeam/${userId}/Role`, { key: accessToken, body: { role } });
const refresh = (refreshToken: string) => call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken } });

/** How a console server action authorizes: the session of the access token, then the role. */
async function consoleAccess(accessToken: string, permission: Parameters<typeof authorizeSeller>[2]) {
  const principal = await authenticateAccessToken(getDb(), { token: accessToken, accepted: ['merchant'] });
  return authorizeSeller(getDb(), principal, permission);
}

describe('seller team and roles', () => {
  it('invites by email; the member joins the same account, and Identity tells member, account and role', async () => {
    const owner = await registerVerifiedSeller();
    const developer = await joinTeam(owner.tokens.accessToken, 'Developer');
    // sub stays the seller account; the session names the member.
    expect(decodeJwt(developer.tokens.accessToken)).toMatchObject({ sub: owner.merchantId, aud: 'merchant' });
    const me = await identity(developer.tokens.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userType: 'Merchant',
      id: owner.merchantId,
      role: 'Developer',
      user: { id: developer.userId, email: developer.email, role: 'Developer', emailVerified: true },
    });
    const listed = await team(owner.tokens.accessToken);
    expect(listed.status).toBe(200);
    expect(listed.body.members.map((m: any) => [m.email, m.role])).toEqual([
      [owner.email, 'Owner'],
      [developer.email, 'Developer'],
    ]);
    // The member signs in with its own email and password.
    const login = await call('POST', '/api/MerchantAuth/Login', { body: { email: developer.email, password: PASSWORD }, headers: freshIp() });
    expect(login.status).toBe(200);
    expect(decodeJwt(login.body.accessToken).sub).toBe(owner.merchantId);
  });

  it('an unverified Owner cannot invite', async () => {
    const { tokens } = await registerSeller();
    const refused = await invite(tokens.accessToken, uniqueEmail('friend'), 'Developer');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect(refused.body.detail).toMatch(/Confirm your email/);
  });

  it('enforces roles on the sign-in APIs: Developer keys yes, team no; Support no keys', async () => {
    const owner = await registerVerifiedSeller();
    const developer = await joinTeam(owner.tokens.accessToken, 'Developer');
    const support = await joinTeam(owner.tokens.accessToken, 'Support');
    const readOnly = await joinTeam(owner.tokens.accessToken, 'ReadOnly');

    const key = await call('POST', '/api/MerchantApiKey', { key: developer.tokens.accessToken, body: { name: 'dev', scopes: ['products:read'] } });
    expect(key.status).toBe(201);
    expect((await invite(developer.tokens.accessToken, uniqueEmail('x'), 'Developer')).status).toBe(403);
    expect((await team(developer.tokens.accessToken)).status).toBe(200);

    for (const member of [support, readOnly]) {
      const created = await call('POST', '/api/MerchantApiKey', { key: member.tokens.accessToken, body: { name: 'no', scopes: ['products:read'] } });
      expect(created.status).toBe(403);
      expect(created.body.code).toBe('FORBIDDEN');
    }
    expect((await call('GET', '/api/MerchantApiKey', { key: support.tokens.accessToken })).status).toBe(403);
    expect((await call('GET', '/api/MerchantApiKey', { key: readOnly.tokens.accessToken })).status).toBe(200);
  });

  it('a Developer cannot refund; Support refunds up to the account limit only; Owners any amount', async () => {
    const owner = await registerVerifiedSeller();
    const developer = await joinTeam(owner.tokens.accessToken, 'Developer');
    const support = await joinTeam(owner.tokens.accessToken, 'Support');

    await expect(consoleAccess(developer.tokens.accessToken, 'refunds:create')).rejects.toMatchObject({ code: 'FORBIDDEN' });

    const supportAccess = await consoleAccess(support.tokens.accessToken, 'refunds:create');
    await expect(assertSellerMayRefund(getDb(), supportAccess, { amount: 100, currency: 'USD' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await setSupportRefundLimit(getDb(), owner.merchantId, { amount: 5000, currency: 'USD' });
    await expect(assertSellerMayRefund(getDb(), supportAccess, { amount: 5000, currency: 'USD' })).resolves.toBeUndefined();
    await expect(assertSellerMayRefund(getDb(), supportAccess, { amount: 5001, currency: 'USD' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(assertSellerMayRefund(getDb(), supportAccess, { amount: 100, currency: 'EUR' })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    const ownerAccess = await consoleAccess(owner.tokens.accessToken, 'refunds:create');
    await expect(assertSellerMayRefund(getDb(), ownerAccess, { amount: 10_000_000, currency: 'EUR' })).resolves.toBeUndefined();
  });

  it('removing a member ends its sign-ins at once: its refresh token and access token answer 401', async () => {
    const owner = await registerVerifiedSeller();
    const member = await joinTeam(owner.tokens.accessToken, 'Admin');
    expect((await identity(member.tokens.accessToken)).status).toBe(200);

    const removed = await remove(owner.tokens.accessToken, member.userId);
    expect(removed.status, removed.text).toBe(204);

    const refreshed = await refresh(member.tokens.refreshToken);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await identity(member.tokens.accessToken)).status).toBe(401);
    expect((await call('POST', '/api/MerchantAuth/Login', { body: { email: member.email, password: PASSWORD }, headers: freshIp() })).status).toBe(401);
    expect((await team(owner.tokens.accessToken)).body.members).toHaveLength(1);
  });

  it('a role change applies on the next call, without signing in again', async () => {
    const owner = await registerVerifiedSeller();
    const member = await joinTeam(owner.tokens.accessToken, 'ReadOnly');
    expect((await call('POST', '/api/MerchantApiKey', { key: member.tokens.accessToken, body: { name: 'k', scopes: ['products:read'] } })).status).toBe(403);
    const changed = await setRole(owner.tokens.accessToken, member.userId, 'Developer');
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: member.userId, role: 'Developer' });
    expect((await call('POST', '/api/MerchantApiKey', { key: member.tokens.accessToken, body: { name: 'k', scopes: ['products:read'] } })).status).toBe(201);
  });

  it('the account always keeps an Owner, and only Owners touch the Owner role', async () => {
    const owner = await registerVerifiedSeller();
    const ownerId = (await identity(owner.tokens.accessToken)).body.user.id;
    expect((await remove(owner.tokens.accessToken, ownerId)).body.code).toBe('INVALID_STATE');
    expect((await setRole(owner.tokens.accessToken, ownerId, 'Admin')).status).toBe(409);

    const admin = await joinTeam(owner.tokens.accessToken, 'Admin');
    expect((await remove(admin.tokens.accessToken, ownerId)).status).toBe(403);
    expect((await setRole(admin.tokens.accessToken, ownerId, 'Developer')).status).toBe(403);
    expect((await invite(admin.tokens.accessToken, uniqueEmail('boss'), 'Owner')).status).toBe(403);
    // The Admin's email was proved by the invitation link, so it may invite below Owner.
    expect((await invite(admin.tokens.accessToken, uniqueEmail('helper'), 'Support')).status).toBe(201);

    // With a second Owner, the first may step down.
    const second = await joinTeam(owner.tokens.accessToken, 'Owner');
    expect((await setRole(owner.tokens.accessToken, ownerId, 'Admin')).status).toBe(200);
    expect((await remove(second.tokens.accessToken, second.userId)).status).toBe(409);
  });

  it('two Owners removing each other at once leave one Owner', async () => {
    const owner = await registerVerifiedSeller();
    const ownerId = (await identity(owner.tokens.accessToken)).body.user.id;
    const second = await joinTeam(owner.tokens.accessToken, 'Owner');
    const [a, b] = await Promise.all([remove(owner.tokens.accessToken, second.userId), remove(second.tokens.accessToken, ownerId)]);
    // One wins; the other is refused (409 last Owner, or 401 if it was already removed when it arrived).
    expect([a.status, b.status].filter((status) => status === 204)).toHaveLength(1);
    expect([a.status, b.status].filter((status) => status === 409 || status === 401)).toHaveLength(1);
    const left = await call('GET', '/api/MerchantTeam', { key: a.status === 204 ? owner.tokens.accessToken : second.tokens.accessToken });
    expect(left.body.members.filter((m: any) => m.role === 'Owner')).toHaveLength(1);
  });

  it('an invitation works once; a revoked one and one for an existing login are refused', async () => {
    const owner = await registerVerifiedSeller();
    const member = await joinTeam(owner.tokens.accessToken, 'Support');
    const again = await call('POST', '/api/MerchantAuth/AcceptInvitation', {
      body: { invitationToken: member.invitationToken, name: 'Again', password: PASSWORD },
      headers: freshIp(),
    });
    expect(again.status).toBe(401);

    const email = uniqueEmail('revoked');
    const invited = await invite(owner.tokens.accessToken, email, 'Developer');
    const token = await latestLinkToken(email, 'merchant.invitation');
    expect((await call('POST', `/api/MerchantTeam/Invitation/${invited.body.id}/Revoke`, { key: owner.tokens.accessToken })).status).toBe(204);
    const revoked = await call('POST', '/api/MerchantAuth/AcceptInvitation', {
      body: { invitationToken: token, name: 'R', password: PASSWORD },
      headers: freshIp(),
    });
    expect(revoked.status).toBe(401);

    const other = await registerSeller();
    const taken = await invite(owner.tokens.accessToken, other.email, 'Developer');
    expect(taken.status).toBe(409);
  });

  it("answers 404 for another account's member and 401 without a token", async () => {
    const owner = await registerVerifiedSeller();
    const other = await registerVerifiedSeller();
    const stranger = await joinTeam(other.tokens.accessToken, 'Developer');
    expect((await remove(owner.tokens.accessToken, stranger.userId)).status).toBe(404);
    expect((await identity(stranger.tokens.accessToken)).status).toBe(200);
    expect((await call('GET', '/api/MerchantTeam')).status).toBe(401);
  });
});
