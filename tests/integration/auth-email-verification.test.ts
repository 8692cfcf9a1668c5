import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { freshIp, latestLinkToken, registerSeller } from '../helpers/sessions';

const verify = (verificationToken: string) => call('POST', '/api/MerchantAuth/VerifyEmail', { body: { verificationToken }, headers: freshIp() });
const resend = (accessToken: string) => call('POST', '/api/MerchantAuth/VerifyEmail/Resend', { key: accessToken });
const identity = (accessToken: string) => call('GET', '/api/Auth/Identity', { key: accessToken });

describe('seller email verification', () => {
  it('mails a link at sign-up; the link verifies the address once', async () => {
    const { email, tokens } = await registerSeller();
    expect((await identity(tokens.accessToken)).body.user).toMatchObject({ email, role: 'Owner', emailVerified: false });
    const token = await latestLinkToken(email, 'merchant.verify_email');
    expect(token).toMatch(/^emv_/);

    const verified = await verify(token);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ email, emailVerified: true });
    expect((await identity(tokens.accessToken)).body.user.emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('UNAUTHENTICATED');
  });

  it('resends a new link (the old one stops working), limited to 3 an hour, and not once verified', async () => {
    const { email, tokens } = await registerSeller();
    const first = await latestLinkToken(email, 'merchant.verify_email');
    const sent = await resend(tokens.accessToken);
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toEqual({ sent: true, expiresIn: 86400 });
    const second = await latestLinkToken(email, 'merchant.verify_email');
    expect(second).not.toBe(first);
    expect((await verify(first)).status).toBe(401);

    expect((await resend(tokens.accessToken)).status).toBe(202);
    expect((await resend(tokens.accessToken)).status).toBe(202);
    const limited = await resend(tokens.accessToken);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');

    expect((await verify(await latestLinkToken(email, 'merchant.verify_email'))).status).toBe(200);
    expect((await resend(tokens.accessToken)).status).toBe(409);
  });

  it('needs a seller access token to resend', async () => {
    expect((await call('POST', '/api/MerchantAuth/VerifyEmail/Resend')).status).toBe(401);
  });

  it('a password reset verifies the address too (the link proved it)', async () => {
    const { email, tokens } = await registerSeller();
    await call('POST', '/api/MerchantAuth/PasswordReset', { body: { email }, headers: freshIp() });
    const resetToken = await latestLinkToken(email, 'merchant.password_reset');
    const done = await call('POST', '/api/MerchantAuth/PasswordReset/Confirm', {
      body: { resetToken, password: 'a brand new passphrase' },
      headers: freshIp(),
    });
    expect(done.status).toBe(204);
    const pair = (await call('POST', '/api/MerchantAuth/Login', { body: { email, password: 'a brand new passphrase' }, headers: freshIp() })).body;
    expect((await identity(pair.accessToken)).body.user.emailVerified).toBe(true);
    expect((await identity(tokens.accessToken)).status).toBe(401);
  });

  it('the developer API keeps working for an unverified seller', async () => {
    const { tokens } = await registerSeller();
    const key = await call('POST', '/api/MerchantApiKey', { key: tokens.accessToken, body: { name: 'backend', scopes: ['products:read'] } });
    expect(key.status, key.text).toBe(201);
    expect((await call('GET', '/api/Product', { key: key.body.secret })).status).toBe(200);
  });
});
