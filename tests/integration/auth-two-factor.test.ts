import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { listRecentEmails } from '@/lib/email/send-email';
import { Secret, TOTP } from 'otpauth';
import { getDb } from '@/lib/db/client';
import { sellerUserTokens } from '@/lib/db/schema';
import { sha256Hex } from '@/lib/secrets';
import { call } from '../helpers/api';
import { PASSWORD, freshIp, joinTeam, registerVerifiedSeller } from '../helpers/sessions';

/** The code an authenticator app with this secret shows `stepsFromNow` periods from now. */
const codeFor = (secret: string, stepsFromNow = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsFromNow * 30_000 });

const login = (email: string, password = PASSWORD, headers = freshIp()) => call('POST', '/api/MerchantAuth/Login', { body: { email, password }, headers });
const second = (challengeToken: string, code: string, headers = freshIp()) =>
  call('POST', '/api/MerchantAuth/Login/TwoFactor', { body: { challengeToken, code }, headers });
const identity = (accessToken: string) => call('GET', '/api/Auth/Identity', { key: accessToken });

/** Turns two-factor on as the app user would: setup, scan (the secret), confirm with a code. */
async function enroll(accessToken: string) {
  const setup = await call('POST', '/api/MerchantTwoFactor/Setup', { key: accessToken });
  expect(setup.status, setup.text).toBe(200);
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Paybase:/);
  expect(setup.body.qrSvg).toMatch(/^<svg/);
  // The previous period's code (still accepted for clock drift), so "now" and "next" stay unspent.
  const confirmed = await call('POST', '/api/MerchantTwoFactor/Confirm', { key: accessToken, body: { code: codeFor(setup.body.secret, -1) } });
  expect(confirmed.status, confirmed.text).toBe(200);
  expect(confirmed.body.recoveryCodes).toHaveLength(10);
  return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

async function challengeFor(email: string) {
  const answer = await login(email);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body).toEqual({ twoFactorRequired: true, challengeToken: expect.stringMatching(/^tfc_/), expiresIn: 300 });
  return answer.body.challengeToken as string;
}

describe('two-factor sign-in', () => {
  it('with two-factor on, Login gives no token pair: a challenge, then the code gives the pair (once)', async () => {
    const { email, tokens } = await registerVerifiedSeller();
    const { secret } = await enroll(tokens.accessToken);
    const challenge = await challengeFor(email);

    const wrong = await second(challenge, '000000' === codeFor(secret) ? '111111' : '000000');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('UNAUTHENTICATED');

    const done = await second(challenge, codeFor(secret));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, refreshToken: expect.stringMatching(/^rt_/) });
    expect((await identity(done.body.accessToken)).body.user.twoFactorEnabled).toBe(true);

    // The challenge is spent, and the same 6-digit code cannot be used again on a new one.
    expect((await second(challenge, codeFor(secret, 1))).status).toBe(401);
    const replay = await second(await challengeFor(email), codeFor(secret));
    expect(replay.status).toBe(401);
  });

  it('a recovery code works once', async () => {
    const { email, tokens } = await registerVerifiedSeller();
    const { recoveryCodes } = await enroll(tokens.accessToken);
    const first = await second(await challengeFor(email), recoveryCodes[3]!.toUpperCase());
    expect(first.status, first.text).toBe(200);
    const again = await second(await challengeFor(email), recoveryCodes[3]!);
    expect(again.status).toBe(401);
    expect((await second(await challengeFor(email), recoveryCodes[4]!)).status).toBe(200);
  });

  it('a challenge dies after 5 wrong codes, and expires after 5 minutes', async () => {
    const { email, tokens } = await registerVerifiedSeller();
    const { secret, recoveryCodes } = await enroll(tokens.accessToken);
    const challenge = await challengeFor(email);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await second(challenge, `bad-code-${i}`, ip)).status).toBe(401);
    expect((await second(challenge, codeFor(secret))).status).toBe(401);
    // Five wrong codes also pause that address for the account, the right password included; the
    // owner elsewhere signs in as usual.
    expect((await login(email, PASSWORD, ip)).status).toBe(429);
    // The owner is told that someone has the password.
    const notices = (await listRecentEmails(getDb(), { to: email })).filter((mail) => mail.category === 'merchant.sign_in_failures');
    expect(notices.map((mail) => mail.subject)).toEqual(['Someone has your Paybase password']);
    expect(notices[0]!.textBody).toContain('wrong two-factor codes entered after the right password');

    const late = await challengeFor(email);
    await getDb()
      .update(sellerUserTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sellerUserTokens.tokenHash, sha256Hex(late)));
    expect((await second(late, recoveryCodes[0]!)).status).toBe(401);
  });

  it('the Owner can require two-factor for the team: no password-only sign-in, and only setup until it is on', async () => {
    const owner = await registerVerifiedSeller();
    const require = (required: boolean, accessToken = owner.tokens.accessToken) =>
      call('POST', '/api/MerchantTeam/RequireTwoFactor', { key: accessToken, body: { required } });
    const developer = await joinTeam(owner.tokens.accessToken, 'Developer');

    expect((await require(true)).status).toBe(409);
    const { secret } = await enroll(owner.tokens.accessToken);
    const admin = await joinTeam(owner.tokens.accessToken, 'Admin');
    expect((await require(true, admin.tokens.accessToken)).status).toBe(403);
    expect((await require(true)).status).toBe(204);

    // A member without two-factor: its open session may only set it up; Login gives no tokens.
    const keys = await call('GET', '/api/MerchantApiKey', { key: developer.tokens.accessToken });
    expect(keys.status).toBe(403);
    expect(keys.body.reason).toBe('two_factor_setup_required');
    expect((await identity(developer.tokens.accessToken)).status).toBe(200);
    const refused = await login(developer.email);
    expect(refused.status).toBe(403);
    expect(refused.body.accessToken).toBeUndefined();

    const devFactor = await enroll(developer.tokens.accessToken);
    expect((await call('GET', '/api/MerchantApiKey', { key: developer.tokens.accessToken })).status).toBe(200);
    expect((await second(await challengeFor(developer.email), devFactor.recoveryCodes[0]!)).status).toBe(200);

    // Turning it off is refused while required; the Owner's own sign-in needs the code too.
    const off = await call('POST', '/api/MerchantTwoFactor/Disable', { key: developer.tokens.accessToken, body: { code: devFactor.recoveryCodes[1] } });
    expect(off.status).toBe(403);
    expect((await second(await challengeFor(owner.email), codeFor(secret))).status).toBe(200);
  });

  it('turning two-factor off needs a valid code, and Login then answers the token pair again', async () => {
    const { email, tokens } = await registerVerifiedSeller();
    const { recoveryCodes } = await enroll(tokens.accessToken);
    expect((await call('POST', '/api/MerchantTwoFactor/Disable', { key: tokens.accessToken, body: { code: 'not-a-code' } })).status).toBe(401);
    expect((await call('POST', '/api/MerchantTwoFactor/Disable', { key: tokens.accessToken, body: { code: recoveryCodes[0] } })).status).toBe(204);
    const plain = await login(email);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
  });
});
