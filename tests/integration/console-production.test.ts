import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { config } from '@/lib/config';
import { sessionCookies } from '@/lib/server/web/session-cookies';
import { startServer, type RunningServer } from '../setup/server';

describe('console cookies', () => {
  it('are httpOnly, SameSite=Lax, scoped to their console, and Secure only in production', () => {
    // The configuration is parsed once per process: APP_ENV is stood in for here.
    const production = vi.spyOn(config, 'isProduction', 'get').mockReturnValue(false);
    try {
      const local = sessionCookies('merchant', { accessToken: 'a', refreshToken: 'r' });
      expect(local.map((c) => [c.name, c.path, c.httpOnly, c.sameSite, c.secure, c.maxAge])).toEqual([
        ['pb_merchant_at', '/merchant', true, 'lax', false, 900],
        ['pb_merchant_rt', '/merchant', true, 'lax', false, 30 * 24 * 3600],
      ]);
      production.mockReturnValue(true);
      expect(sessionCookies('admin', { accessToken: 'a', refreshToken: 'r' }).every((c) => c.secure && c.path === '/admin')).toBe(true);
    } finally {
      production.mockRestore();
    }
  });
});

describe('in production (APP_ENV=production)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      env: { APP_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true', ADMIN_PASSWORD: 'a production admin password', SECRET_KEY: 'x'.repeat(40) },
    });
  }, 240_000);
  afterAll(() => server?.stop(), 60_000);

  it('never prints the configured admin password, only where it came from', () => {
    expect(server.output()).toContain('password from ADMIN_PASSWORD');
    expect(server.output()).not.toContain('a production admin password');
  });

  it('serves no dev mailbox and no pointer to it', async () => {
    const mailbox = await fetch(`${server.baseUrl}/dev/mailbox`);
    expect(mailbox.status).toBe(404);
    const signIn = await (await fetch(`${server.baseUrl}/member/sign-in`)).text();
    expect(signIn).toContain('Sign in to your wallet');
    expect(signIn).not.toContain('dev mailbox');
  });

  it("pins browsers to HTTPS (HSTS) on pages, API answers and the front door's refusals", async () => {
    for (const pathname of ['/merchant/sign-in', '/pay/x0', '/api/health', '/api/NoSuchThing']) {
      const answer = await fetch(`${server.baseUrl}${pathname}`, { redirect: 'manual' });
      expect(answer.headers.get('strict-transport-security'), pathname).toBe('max-age=31536000; includeSubDomains');
      expect(answer.headers.get('content-security-policy'), pathname).toContain("frame-ancestors 'none'");
    }
  });

  it('signs in with SECRET_KEY and seeds no demo seller', async () => {
    const login = await fetch(`${server.baseUrl}/api/AdminAuth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin', password: 'a production admin password' }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const sellers = await fetch(`${server.baseUrl}/api/AdminMerchant`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await sellers.json()) as { totalCount: number }).totalCount).toBe(0);
  });
});
