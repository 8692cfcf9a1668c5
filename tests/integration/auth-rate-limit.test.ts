import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { listRecentEmails } from '@/lib/email/send-email';
import { call } from '../helpers/api';
import { TEST_SERVER_ENV } from '../setup/server';
import { PASSWORD, freshIp, newAdmin, registerSeller, signInSeller } from '../helpers/sessions';

const login = (email: string, password: string, headers: Record<string, string>) =>
  call('POST', '/api/MerchantAuth/Login', { body: { email, password }, headers });
const adminLogin = (name: string, password: string, headers: Record<string, string>) =>
  call('POST', '/api/AdminAuth/Login', { body: { name, password }, headers });

const PER_ACCOUNT_AND_ADDRESS = 5;
const notices = async (email: string) => (await listRecentEmails(getDb(), { to: email })).filter((mail) => mail.category === 'merchant.sign_in_failures');

describe('sign-in throttling: nobody can lock anyone out', () => {
  it('an attacker at A cannot lock out the owner at B: A is paused (even with the right password), B signs in, the owner is told', async () => {
    const { email } = await registerSeller();
    const attacker = freshIp();
    for (let i = 0; i < PER_ACCOUNT_AND_ADDRESS; i++) expect((await login(email, 'wrong password', attacker)).status).toBe(401);
    const paused = await login(email, PASSWORD, attacker);
    expect(paused.status).toBe(429);
    expect(paused.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(paused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // The owner, from an address that has not failed, gets in at once.
    expect((await login(email, PASSWORD, freshIp())).status).toBe(200);

    // One notice to the owner, naming the address; more failures from elsewhere in the hour add none.
    const [notice, ...more] = await notices(email);
    expect(more).toHaveLength(0);
    expect(notice!.subject).toBe('Failed sign-ins to your Paybase account');
    expect(notice!.textBody).toContain(`There were ${PER_ACCOUNT_AND_ADDRESS} failed sign-in attempts for your Paybase seller login (${email})`);
    expect(notice!.textBody).toContain(attacker['x-forwarded-for']);
    expect(notice!.textBody).not.toContain('wrong password');
    const elsewhere = freshIp();
    for (let i = 0; i < PER_ACCOUNT_AND_ADDRESS; i++) await login(email, 'wrong password', elsewhere);
    expect(await notices(email)).toHaveLength(1);
  });

  it('the platform admin cannot be locked out either', async () => {
    const { name } = await newAdmin();
    const attacker = freshIp();
    for (let i = 0; i < PER_ACCOUNT_AND_ADDRESS; i++) expect((await adminLogin(name, 'wrong password', attacker)).status).toBe(401);
    expect((await adminLogin(name, PASSWORD, attacker)).status).toBe(429);
    expect((await adminLogin(name, PASSWORD, freshIp())).status).toBe(200);
  });

  it('a success forgets that address’s failures for the account', async () => {
    const { email } = await registerSeller();
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await login(email, 'wrong password', ip);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password', ip)).status).toBe(401);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
  });

  it('an IPv6 client is counted by its /64: fresh addresses in it do not buy more tries', async () => {
    const { email } = await registerSeller();
    const site = (Date.now() % 0xffff).toString(16);
    const network = Math.floor(Math.random() * 0xfffe);
    const in64 = (n: number, host: string) => ({ 'x-forwarded-for': `2001:db8:${site}:${n.toString(16)}:${host}` });
    for (let i = 1; i <= PER_ACCOUNT_AND_ADDRESS; i++) expect((await login(email, 'wrong password', in64(network, `0:0:0:${i}`))).status).toBe(401);
    expect((await login(email, PASSWORD, in64(network, 'abcd:ef01:2345:6789'))).status).toBe(429);
    // The next /64 is another client.
    expect((await login(email, PASSWORD, in64(network + 1, '0:0:0:1'))).status).toBe(200);
  });

  it('past the backstop (many addresses failing), new addresses are paused, but one the owner signed in from before is not', async () => {
    const { email } = await registerSeller();
    const home = freshIp();
    expect((await login(email, PASSWORD, home)).status).toBe(200);
    const backstop = Number(TEST_SERVER_ENV.SIGN_IN_MAX_FAILURES_PER_ACCOUNT);
    for (let i = 0; i < backstop / PER_ACCOUNT_AND_ADDRESS; i++) {
      const botnet = freshIp();
      for (let j = 0; j < PER_ACCOUNT_AND_ADDRESS; j++) expect((await login(email, 'wrong password', botnet)).status).toBe(401);
    }
    const fresh = await login(email, PASSWORD, freshIp());
    expect(fresh.status).toBe(429);
    expect(fresh.body.detail).toMatch(/new addresses are paused/);
    expect((await login(email, PASSWORD, home)).status).toBe(200);
  }, 60_000);

  it('limits failures from one address across accounts', async () => {
    const ip = freshIp();
    // The limit's worth of failures over many (unknown) accounts, so no per-account limit is reached.
    const perIp = Number(TEST_SERVER_ENV.SIGN_IN_MAX_FAILURES_PER_IP);
    const failures = await Promise.all(Array.from({ length: perIp }, (_, i) => login(`nobody-${i}-${Date.now()}@example.com`, 'whatever password', ip)));
    expect(failures.every((a) => a.status === 401)).toBe(true);
    const { email } = await registerSeller();
    const limited = await login(email, PASSWORD, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await signInSeller(email)).accessToken).toEqual(expect.any(String));
  }, 90_000);
});
