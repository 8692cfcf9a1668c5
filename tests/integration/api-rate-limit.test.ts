import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@/lib/db/schema';
import { createApiKey } from '@/lib/auth/api-keys';
import { SCOPES } from '@/lib/http/scopes';
import { call } from '../helpers/api';
import { startServer, type RunningServer } from '../setup/server';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * The developer API's rate limit per API key (docs/api.md, "Rate limits") on a server of its
 * own with a low limit: 4 requests per 60-second window (the suite's shared server sets a
 * limit it never reaches). A window this long cannot roll over while the test runs.
 */
const LIMIT = 4;
const ENV = { API_RATE_LIMIT: String(LIMIT), API_RATE_LIMIT_WINDOW_SECONDS: '60', RUN_WORKER: 'false' };

let server: RunningServer;
let pool: pg.Pool | undefined;
let demoKey: string;

beforeAll(async () => {
  server = await startServer({ env: ENV });
  demoKey = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
}, 60_000);

const api = (key: string | undefined, method: string, path: string, body?: unknown) => call(method, path, { key, body, baseUrl: server.baseUrl });

/** A second key of the demo seller, made in the server's database. */
async function secondKey() {
  pool ??= serverPool(server.databaseUrl, 1);
  const db = serverDatabase(pool);
  const [merchant] = await db.select().from(schema.merchants).limit(1);
  return (await createApiKey(db, { merchantId: merchant!.id, name: 'second', scopes: SCOPES })).secret;
}

describe('rate limits per API key', () => {
  it('tell every answer the quota, answer 429 with Retry-After past it, and count each key on its own', async () => {
    const first = await api(demoKey, 'GET', '/api/Product');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(first.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=60`);
    const reset = Number(first.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);

    // Errors after authentication count and carry the headers too.
    const invalid = await api(demoKey, 'POST', '/api/Product', { name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
    const created = await api(demoKey, 'POST', '/api/Product', { name: 'Counted' });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 3));
    expect((await api(demoKey, 'GET', '/api/Customer')).headers.get('ratelimit-remaining')).toBe('0');

    // Past the limit: 429 problem+json, and nothing is executed.
    const limited = await api(demoKey, 'POST', '/api/Product', { name: 'Refused' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', status: 429, limit: LIMIT, windowSeconds: 60 });
    expect(limited.headers.get('x-request-id')).toBe(limited.body.requestId);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');

    // Another key of the same seller has its own quota; it sees the first key's product only.
    const other = await secondKey();
    const listed = await api(other, 'GET', '/api/Product?pageSize=100');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(listed.body.data.map((product: { name: string }) => product.name)).toContain('Counted');
    expect(listed.body.data.map((product: { name: string }) => product.name)).not.toContain('Refused');

    // A request without a valid key is not counted against any key and tells no quota.
    const anonymous = await api(undefined, 'GET', '/api/Product');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit-limit')).toBeNull();
    expect((await api(demoKey, 'GET', '/api/Product')).status).toBe(429);
  });

  it('slide: a request frees its slot when it leaves the window, not when a fixed window ends', async () => {
    const key = await secondKey();
    for (let index = 0; index < LIMIT; index++) expect((await api(key, 'GET', '/api/Product')).status).toBe(200);
    expect((await api(key, 'GET', '/api/Product')).status).toBe(429);
    // The two oldest accepted requests are moved 61 s back, out of the 60-second window.
    const db = serverPool(server.databaseUrl, 1);
    try {
      const moved = await db.query(
        `update api_request_windows w set accepted_at = (select array_agg(case when n <= 2 then t - interval '61 seconds' else t end order by n)
           from unnest(w.accepted_at) with ordinality as a(t, n))
         where api_key_id = (select id from api_keys where name = 'second' order by created_at desc limit 1)`,
      );
      expect(moved.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const freed = await api(key, 'GET', '/api/Product');
    expect(freed.status).toBe(200);
    expect(freed.headers.get('ratelimit-remaining')).toBe('1');
    expect((await api(key, 'GET', '/api/Product')).headers.get('ratelimit-remaining')).toBe('0');
    expect((await api(key, 'GET', '/api/Product')).status).toBe(429);
  });
});
