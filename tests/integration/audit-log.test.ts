import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { getDb } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema';
import { listAuditEntries } from '@/lib/audit/audit-log';
import { call, type ApiAnswer } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice } from '../helpers/payments';
import { PASSWORD, freshIp, joinTeam, latestLinkToken, newAdmin, registerSeller, registerVerifiedSeller, signInSeller } from '../helpers/sessions';

type Entry = typeof auditLog.$inferSelect;

/** The newest entry of an action about a target (or a seller), as the consoles read it. */
async function entryOf(action: string, where: { targetId?: string; merchantId?: string }): Promise<Entry> {
  const [row] = await getDb()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        where.targetId ? eq(auditLog.targetId, where.targetId) : undefined,
        where.merchantId ? eq(auditLog.merchantId, where.merchantId) : undefined,
      ),
    )
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  expect(row, `${action} entry for ${JSON.stringify(where)}`).toBeTruthy();
  return row!;
}

/** Whom, from where and in which request: the client address sent and the answer's request id. */
function expectFromRequest(entry: Entry, headers: Record<string, string>, answer: ApiAnswer) {
  expect(entry.ip).toBe(headers['x-forwarded-for']);
  expect(entry.requestId).toBe(answer.headers.get('x-request-id'));
  expect(entry.requestId).toMatch(/^req_/);
}

function expectNoSecret(entry: Entry, secrets: string[]) {
  const text = JSON.stringify(entry);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

const codeFor = (secret: string, stepsFromNow = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsFromNow * 30_000 });

describe('audit log', () => {
  it('records admin sign-ins and failed sign-ins, never the password', async () => {
    const admin = await newAdmin();
    const headers = freshIp();
    const signedIn = await call('POST', '/api/AdminAuth/Login', { body: { name: admin.name, password: PASSWORD }, headers });
    expect(signedIn.status).toBe(200);
    const success = await entryOf('admin.sign_in', { targetId: (await call('GET', '/api/Auth/Identity', { key: signedIn.body.accessToken })).body.id });
    expectFromRequest(success, headers, signedIn);
    expect(success).toMatchObject({ actorKind: 'admin', actorLabel: admin.name, merchantId: null });
    expectNoSecret(success, [PASSWORD, signedIn.body.accessToken, signedIn.body.refreshToken]);

    const failHeaders = freshIp();
    const wrong = await call('POST', '/api/AdminAuth/Login', { body: { name: admin.name, password: 'not the password 123' }, headers: failHeaders });
    expect(wrong.status).toBe(401);
    const failure = await entryOf('admin.sign_in_failed', { targetId: success.targetId! });
    expectFromRequest(failure, failHeaders, wrong);
    expect(failure).toMatchObject({ actorKind: 'anonymous', actorLabel: admin.name, metadata: { reason: 'wrong_password' } });
    expectNoSecret(failure, ['not the password 123']);
  });

  it('records seller sign-ins and failures on the seller account, visible to it and not to another seller', async () => {
    const seller = await registerSeller();
    const other = await registerSeller();
    const headers = freshIp();
    const wrong = await call('POST', '/api/MerchantAuth/Login', { body: { email: seller.email, password: 'wrong password 12345' }, headers });
    expect(wrong.status).toBe(401);
    const failure = await entryOf('seller.sign_in_failed', { merchantId: seller.merchantId });
    expectFromRequest(failure, headers, wrong);
    expect(failure).toMatchObject({ actorKind: 'anonymous', actorLabel: seller.email, metadata: { reason: 'wrong_password' } });
    expectNoSecret(failure, ['wrong password 12345']);

    const okHeaders = freshIp();
    const ok = await call('POST', '/api/MerchantAuth/Login', { body: { email: seller.email, password: PASSWORD }, headers: okHeaders });
    const success = await entryOf('seller.sign_in', { merchantId: seller.merchantId });
    expectFromRequest(success, okHeaders, ok);
    expect(success).toMatchObject({ actorKind: 'seller_user', actorLabel: seller.email, metadata: { method: 'password' } });
    expectNoSecret(success, [PASSWORD, ok.body.accessToken, ok.body.refreshToken]);

    // Unknown addresses belong to no seller: only the platform admin sees them.
    const stranger = `nobody-${Date.now()}@example.com`;
    await call('POST', '/api/MerchantAuth/Login', { body: { email: stranger, password: 'whatever password' }, headers: freshIp() });
    const unknown = (await listAuditEntries(getDb(), { merchantId: undefined }, { actor: stranger })).data;
    expect(unknown.map((e) => [e.action, e.merchantId, e.metadata])).toEqual([['seller.sign_in_failed', null, { reason: 'unknown_account' }]]);

    // Tenant isolation: each seller reads its own entries only.
    const own = (await listAuditEntries(getDb(), { merchantId: seller.merchantId }, {})).data;
    expect(own.map((e) => e.id)).toEqual(expect.arrayContaining([failure.id, success.id]));
    expect(own.every((e) => e.merchantId === seller.merchantId)).toBe(true);
    const theirs = (await listAuditEntries(getDb(), { merchantId: other.merchantId }, {})).data;
    expect(theirs.some((e) => e.id === failure.id || e.id === success.id)).toBe(false);
    expect((await listAuditEntries(getDb(), { merchantId: other.merchantId }, { actor: seller.email })).data).toEqual([]);
  });

  it('records API keys created and revoked by a seller user, with the name and scopes but never the secret', async () => {
    const seller = await registerSeller();
    const headers = freshIp();
    const created = await call('POST', '/api/MerchantApiKey', {
      key: seller.tokens.accessToken,
      body: { name: 'backend', scopes: ['payments:read'] },
      headers,
    });
    expect(created.status).toBe(201);
    const entry = await entryOf('api_key.created', { targetId: created.body.id });
    expectFromRequest(entry, headers, created);
    expect(entry).toMatchObject({
      merchantId: seller.merchantId,
      actorKind: 'seller_user',
      actorLabel: seller.email,
      metadata: { name: 'backend', scopes: ['payments:read'] },
    });
    expectNoSecret(entry, [created.body.secret]);

    const revokeHeaders = freshIp();
    const revoked = await call('POST', `/api/MerchantApiKey/${created.body.id}/Revoke`, { key: seller.tokens.accessToken, headers: revokeHeaders });
    expect(revoked.status).toBe(200);
    expectFromRequest(await entryOf('api_key.revoked', { targetId: created.body.id }), revokeHeaders, revoked);
    // Revoking again changes nothing and records nothing.
    await call('POST', `/api/MerchantApiKey/${created.body.id}/Revoke`, { key: seller.tokens.accessToken });
    expect((await listAuditEntries(getDb(), { merchantId: seller.merchantId }, { action: 'api_key.revoked' })).data).toHaveLength(1);
  });

  it('records a webhook secret rotation by the API key that asked, without the secret', async () => {
    const { api, merchant, keyId } = await newMerchant();
    const { body: endpoint } = await api.post('/api/WebhookEndpoint', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const headers = freshIp();
    const rotated = await api.post(`/api/WebhookEndpoint/${endpoint.id}/RotateSecret`, undefined, headers);
    expect(rotated.status).toBe(200);
    const entry = await entryOf('webhook_endpoint.secret_rotated', { targetId: endpoint.id });
    expectFromRequest(entry, headers, rotated);
    expect(entry).toMatchObject({ merchantId: merchant.id, actorKind: 'api_key', actorId: keyId });
    expectNoSecret(entry, [rotated.body.signingSecret, endpoint.signingSecret]);
  });

  it('records suspensions and reinstatements with the admin, the reason and the seller', async () => {
    const admin = await newAdmin();
    const seller = await registerSeller();
    const headers = freshIp();
    const suspended = await call('POST', `/api/AdminMerchant/${seller.merchantId}/Suspend`, {
      key: admin.tokens.accessToken,
      body: { reason: 'Chargeback spike' },
      headers,
    });
    expect(suspended.status).toBe(200);
    const entry = await entryOf('merchant.suspended', { targetId: seller.merchantId });
    expectFromRequest(entry, headers, suspended);
    expect(entry).toMatchObject({
      merchantId: seller.merchantId,
      actorKind: 'admin',
      actorLabel: admin.name,
      metadata: { reason: 'Chargeback spike', previousStatus: 'active' },
    });
    const reinstated = await call('POST', `/api/AdminMerchant/${seller.merchantId}/Reinstate`, { key: admin.tokens.accessToken, headers });
    expect(reinstated.status).toBe(200);
    expect(await entryOf('merchant.reinstated', { targetId: seller.merchantId })).toMatchObject({
      actorKind: 'admin',
      metadata: { reason: null, previousStatus: 'suspended' },
    });
    const tooLong = await call('POST', `/api/AdminMerchant/${seller.merchantId}/Suspend`, { key: admin.tokens.accessToken, body: { reason: 'x'.repeat(501) } });
    expect(tooLong.status).toBe(400);
  });

  it('records refunds with the amount and the payment', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef: 'tok_visa' }, ik());
    const paymentId = checkout.body.payment.id as string;
    const headers = { ...freshIp(), ...ik() };
    const refund = await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 250, reason: 'damaged' }, headers);
    expect(refund.status).toBe(201);
    const entry = await entryOf('refund.created', { targetId: refund.body.id });
    expectFromRequest(entry, headers, refund);
    expect(entry).toMatchObject({ merchantId: merchant.id, actorKind: 'api_key', metadata: { paymentId, amount: 250, currency: 'USD', reason: 'damaged' } });
  });

  it('records two-factor changes, team changes and password resets, without codes or links', async () => {
    const owner = await registerVerifiedSeller();
    const token = owner.tokens.accessToken;
    const setup = await call('POST', '/api/MerchantTwoFactor/Setup', { key: token });
    const confirmed = await call('POST', '/api/MerchantTwoFactor/Confirm', { key: token, body: { code: codeFor(setup.body.secret, -1) }, headers: freshIp() });
    expect(confirmed.status).toBe(200);
    const enabled = await entryOf('seller.two_factor_enabled', { merchantId: owner.merchantId });
    expectNoSecret(enabled, [setup.body.secret, ...confirmed.body.recoveryCodes]);
    const disabled = await call('POST', '/api/MerchantTwoFactor/Disable', { key: token, body: { code: codeFor(setup.body.secret) } });
    expect(disabled.status, disabled.text).toBe(204);
    await entryOf('seller.two_factor_disabled', { merchantId: owner.merchantId });

    const member = await joinTeam(token, 'Developer');
    const invited = await entryOf('team.member_invited', { merchantId: owner.merchantId });
    expect(invited).toMatchObject({ actorKind: 'seller_user', actorLabel: owner.email, metadata: { email: member.email, role: 'Developer' } });
    expectNoSecret(invited, [member.invitationToken]);
    expect(await entryOf('team.invitation_accepted', { merchantId: owner.merchantId })).toMatchObject({
      actorId: member.userId,
      metadata: { role: 'Developer' },
    });
    const headers = freshIp();
    const changed = await call('POST', `/api/MerchantTeam/${member.userId}/Role`, { key: token, body: { role: 'Support' }, headers });
    expect(changed.status, changed.text).toBe(200);
    const roleEntry = await entryOf('team.role_changed', { targetId: member.userId });
    expectFromRequest(roleEntry, headers, changed);
    expect(roleEntry.metadata).toEqual({ email: member.email, from: 'Developer', to: 'Support' });

    await call('POST', '/api/MerchantAuth/PasswordReset', { body: { email: member.email }, headers: freshIp() });
    const resetToken = await latestLinkToken(member.email, 'merchant.password_reset');
    expectNoSecret(await entryOf('seller.password_reset_requested', { targetId: member.userId }), [resetToken]);
    const reset = await call('POST', '/api/MerchantAuth/PasswordReset/Confirm', { body: { resetToken, password: 'a brand new password' }, headers: freshIp() });
    expect(reset.status, reset.text).toBe(204);
    const resetEntry = await entryOf('seller.password_reset', { targetId: member.userId });
    expect(resetEntry).toMatchObject({ actorKind: 'seller_user', actorLabel: member.email });
    expectNoSecret(resetEntry, [resetToken, 'a brand new password']);
    await signInSeller(member.email, 'a brand new password');
  });
});
