import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, payments, sandboxProcessorOperations } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { eventually } from '../helpers/webhook-receiver';
import { startServer, type RunningServer } from '../setup/server';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * The Idempotency-Key lease (docs/api.md, "Idempotency"): a server of its own with a 2 s lease
 * (IDEMPOTENCY_LEASE_MS) whose sandbox processor takes 4 s per call, longer than the lease. A
 * running request keeps its key (renewal); a request killed with its process frees the key
 * within seconds, and the retry finishes the interrupted checkout: one charge. The lease is
 * renewed on a connection of its own, so requests filling the pool cannot make it lapse.
 */
const LEASE_MS = 2_000;
/** Every connection of the requests' pool is a request's (no worker in this server holds one). */
const POOL_SIZE = 4;
const ENV = {
  IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
  SANDBOX_PROCESSOR_LATENCY_MS: String(2 * LEASE_MS),
  DATABASE_POOL_SIZE: String(POOL_SIZE),
  RUN_WORKER: 'false',
};

let server: RunningServer | undefined;
let pool: pg.Pool | undefined;
/** The demo seller's API key (the same across the restart: one data directory). */
let apiKey = '';

afterAll(async () => {
  await pool?.end();
  await server?.stop();
}, 60_000);

function database(databaseUrl: string) {
  pool = serverPool(databaseUrl, 2);
  return serverDatabase(pool);
}

describe('Idempotency-Key lease', () => {
  it('holds the key while the request runs, frees it within seconds of a SIGKILL, and the retry charges once', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    apiKey = key;
    const db = database(server.databaseUrl);
    const api = (body: unknown, idempotencyKey: string) =>
      call('POST', '/api/Checkout', { key, body, headers: { 'Idempotency-Key': idempotencyKey }, baseUrl: server!.baseUrl });
    const product = await call('POST', '/api/Product', { key, body: { name: 'Lease' }, baseUrl: server.baseUrl });
    const price = await call('POST', '/api/Price', {
      key,
      body: { productId: product.body.id, type: 'OneTime', amount: 4321, currency: 'USD' },
      baseUrl: server.baseUrl,
    });
    const request = { priceId: price.body.id, customerEmail: 'lease@example.com', tokenRef: 'tok_visa' };

    // A request that outlives the lease keeps its key: a duplicate meanwhile is told to wait.
    const first = api(request, 'renewed');
    await eventually(async () => (await db.select().from(payments).where(eq(payments.amount, 4321))).length === 1, 20_000, 'phase 1 committed');
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 1.25));
    const duplicate = await api(request, 'renewed');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(duplicate.headers.get('retry-after')).toBe('1');
    expect((await first).status).toBe(201);

    // Killed mid-checkout (phase 2, at the processor).
    const crashed = api(request, 'crashed').catch(() => 'cut off');
    await eventually(async () => (await db.select().from(payments).where(eq(payments.amount, 4321))).length === 2, 20_000, 'phase 1 committed');
    await server.kill();
    expect(await crashed).toBe('cut off');
    await pool!.end();
    server = await startServer({ env: ENV, dataDir });
    const restarted = database(server.databaseUrl);

    // The retry answers once the dead request's lease has lapsed: at most 10 tries a second apart.
    let retried = await api(request, 'crashed');
    for (let tries = 1; retried.status === 409 && tries < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, Number(retried.headers.get('retry-after')) * 1000));
      retried = await api(request, 'crashed');
    }
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.paid).toBe(true);
    const charged = await restarted.select().from(payments).where(eq(payments.amount, 4321));
    expect(charged.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    const booked = await restarted.select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.amount, 4321));
    expect(booked).toHaveLength(2);
    const replay = await api(request, 'crashed');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.payment.id).toBe(retried.body.payment.id);
  }, 300_000);

  it('renews the lease while requests waiting on a locked row hold every connection of the pool', async () => {
    const key = apiKey;
    const db = serverDatabase(pool!);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call('POST', path, { key, body, headers, baseUrl: server!.baseUrl });
    const product = (await post('/api/Product', { name: 'Busy row' })).body;
    const price = (await post('/api/Price', { productId: product.id, type: 'OneTime', amount: 5432, currency: 'USD' })).body;
    const checkout = post('/api/Checkout', { priceId: price.id, customerEmail: 'busy@example.com', tokenRef: 'tok_visa' }, { 'Idempotency-Key': 'saturated' });
    await eventually(async () => (await db.select().from(payments).where(eq(payments.amount, 5432))).length === 1, 20_000, 'phase 1 committed');

    // The product's row is held here; more updates of it than the pool has connections each
    // take a connection and wait, and every other statement of the server queues for one.
    const holder = await pool!.connect();
    await holder.query('begin');
    await holder.query('select id from products where id = $1 for update', [product.id]);
    const updates = Array.from({ length: POOL_SIZE + 2 }, (_, i) =>
      call('PUT', `/api/Product/${product.id}`, { key, body: { name: `Busy row ${i}` }, baseUrl: server!.baseUrl }),
    );
    try {
      await eventually(
        async () => {
          const waiting = await pool!.query(
            `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update "products"%'`,
          );
          return waiting.rows[0].n === POOL_SIZE;
        },
        20_000,
        'the pool filled by waiting requests',
      );
      const lease = async () => {
        const [row] = await db
          .select({ lockedAt: idempotencyKeys.lockedAt, state: idempotencyKeys.state })
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.key, 'saturated'), eq(idempotencyKeys.method, 'POST')));
        return row!;
      };
      const before = await lease();
      expect(before.state).toBe('in_progress');
      // Renewed for longer than a lease period while the pool stays full: the key never lapsed.
      await eventually(async () => (await lease()).lockedAt.getTime() - before.lockedAt.getTime() >= LEASE_MS, 5 * LEASE_MS, 'the lease renewed');
    } finally {
      await holder.query('commit');
      holder.release();
      await Promise.allSettled([...updates, checkout]);
    }
    expect((await Promise.all(updates)).map((answer) => answer.status)).toEqual(Array(POOL_SIZE + 2).fill(200));
    const paid = await checkout;
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.paid).toBe(true);
  }, 120_000);

  it('stops cleanly: Ctrl-C logs no error', async () => {
    const before = server!.output().length;
    await pool?.end();
    pool = undefined;
    await server!.stop();
    const stopping = server!.output().slice(before);
    server = undefined;
    const errors = stopping.split('\n').filter((line) => /"level":(50|60)/.test(line) || /error/i.test(line));
    expect(errors).toEqual([]);
  }, 60_000);
});
