import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { TEST_SERVER_ENV } from '../setup/server';
import { PASSWORD, freshIp, registerSeller } from '../helpers/sessions';

const login = (email: string, password: string, headers: Record<string, string>) =>
  call('POST', '/api/MerchantAuth/Login', { body: { email, password }, headers });

describe('sign-in rate limits', () => {
  it('locks one account after 5 failures (429 + Retry-After), even with the right password, from any address', async () => {
    const { email } = await registerSeller();
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong password', freshIp())).status).toBe(401);
    const limited = await login(email, PASSWORD, freshIp());
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('a success clears the account counter', async () => {
    const { email } = await registerSeller();
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await login(email, 'wrong password', ip);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password', ip)).status).toBe(401);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
  });

  it('limits failures from one address across accounts', async () => {
    const ip = freshIp();
    // The limit's worth of failures over many (unknown) accounts, so no account limit is reached.
    const perIp = Number(TEST_SERVER_ENV.SIGN_IN_MAX_FAILURES_PER_IP);
    const failures = await Promise.all(Array.from({ length: perIp }, (_, i) => login(`nobody-${i}-${Date.now()}@example.com`, 'whatever password', ip)));
    expect(failures.every((a) => a.status === 401)).toBe(true);
    const { email } = await registerSeller();
    const limited = await login(email, PASSWORD, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await login(email, PASSWORD, freshIp())).status).toBe(200);
  }, 90_000);
});
