import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { sellerUserTokens } from '@/lib/db/schema';
import { sha256Hex } from '@/lib/secrets';
import { listRecentEmails } from '@/lib/email/send-email';
import { call } from '../helpers/api';
import { PASSWORD, freshIp, latestLinkToken, registerSeller, uniqueEmail } from '../helpers/sessions';

const NEW_PASSWORD = 'a brand new passphrase';
const askReset = (email: string, headers = freshIp()) => call('POST', '/api/MerchantAuth/PasswordReset', { body: { email }, headers });
const confirm = (resetToken: string, password = NEW_PASSWORD) =>
  call('POST', '/api/MerchantAuth/PasswordReset/Confirm', { body: { resetToken, password }, headers: freshIp() });
const login = (email: string, password: string, headers = freshIp()) => call('POST', '/api/MerchantAuth/Login', { body: { email, password }, headers });
const refresh = (refreshToken: string) => call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken } });
const identity = (accessToken: string) => call('GET', '/api/Auth/Identity', { key: accessToken });

describe('seller password reset', () => {
  it('mails a single-use link; the new password works, the old one does not, and every sign-in ends', async () => {
    const { email, tokens } = await registerSeller();
    const second = (await login(email, PASSWORD)).body;

    const asked = await askReset(email.toUpperCase());
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toEqual({ sent: true, expiresIn: 1800 });
    const resetToken = await latestLinkToken(email, 'merchant.password_reset');
    expect(resetToken).toMatch(/^prt_/);
    // Stored only as a hash.
    const [row] = await getDb()
      .select()
      .from(sellerUserTokens)
      .where(eq(sellerUserTokens.tokenHash, sha256Hex(resetToken)));
    expect(row).toMatchObject({ purpose: 'password_reset', usedAt: null });

    const done = await confirm(resetToken);
    expect(done.status, done.text).toBe(204);

    expect((await login(email, PASSWORD)).status).toBe(401);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    // Both refresh-token families of the user are revoked, and their access tokens stop too.
    for (const pair of [tokens, second]) {
      const refreshed = await refresh(pair.refreshToken);
      expect(refreshed.status).toBe(401);
      expect(refreshed.body.code).toBe('INVALID_REFRESH_TOKEN');
      expect((await identity(pair.accessToken)).status).toBe(401);
    }
    const mails = await listRecentEmails(getDb(), { to: email });
    expect(mails.map((m) => m.category)).toContain('merchant.password_changed');
  });

  it('refuses a link used twice', async () => {
    const { email } = await registerSeller();
    await askReset(email);
    const resetToken = await latestLinkToken(email, 'merchant.password_reset');
    expect((await confirm(resetToken)).status).toBe(204);
    const again = await confirm(resetToken, 'yet another passphrase');
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('UNAUTHENTICATED');
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired link and a link replaced by a newer one', async () => {
    const { email } = await registerSeller();
    await askReset(email);
    const expired = await latestLinkToken(email, 'merchant.password_reset');
    // Thirty-one minutes later.
    await getDb()
      .update(sellerUserTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sellerUserTokens.tokenHash, sha256Hex(expired)));
    expect((await confirm(expired)).status).toBe(401);

    await askReset(email);
    const older = await latestLinkToken(email, 'merchant.password_reset');
    await askReset(email);
    const newer = await latestLinkToken(email, 'merchant.password_reset');
    expect(newer).not.toBe(older);
    expect((await confirm(older)).status).toBe(401);
    expect((await confirm(newer)).status).toBe(204);
    expect((await login(email, PASSWORD)).status).toBe(401);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const asked = await askReset(email);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ sent: true, expiresIn: 1800 });
    expect(await listRecentEmails(getDb(), { to: email })).toHaveLength(0);
  });

  it('checks the new password like sign-up does', async () => {
    const { email } = await registerSeller();
    await askReset(email);
    const short = await confirm(await latestLinkToken(email, 'merchant.password_reset'), 'short');
    expect(short.status).toBe(400);
    expect(short.body.errors[0].path).toBe('password');
  });

  it('limits requests per address (known or not) and per client address', async () => {
    const known = (await registerSeller()).email;
    for (const email of [known, uniqueEmail('nobody')]) {
      for (let i = 0; i < 3; i++) expect((await askReset(email)).status).toBe(202);
      const limited = await askReset(email);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const ip = freshIp();
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push((await askReset(uniqueEmail('spray'), ip)).status);
    expect(answers.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(answers[30]).toBe(429);
  }, 60_000);

  it('lifts the account’s sign-in pauses, for every address', async () => {
    const { email } = await registerSeller();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await login(email, 'wrong password', ip);
    expect((await login(email, PASSWORD, ip)).status).toBe(429);
    await askReset(email);
    expect((await confirm(await latestLinkToken(email, 'merchant.password_reset'))).status).toBe(204);
    expect((await login(email, NEW_PASSWORD, ip)).status).toBe(200);
  });
});
