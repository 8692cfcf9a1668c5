import fs from 'node:fs';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import type pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { call } from '../helpers/api';
import * as schema from '@/lib/db/schema';
import { createApiKey } from '@/lib/auth/api-keys';
import { SCOPES } from '@/lib/http/scopes';
import { startBalancer, type Balancer } from '../helpers/balancer';
import { serverDatabase, serverPool } from '../helpers/server-pool';
import { eventually } from '../helpers/webhook-receiver';
import { startServer, unusedPort, type RunningServer } from '../setup/server';

/**
 * Running Paybase on several machines (docs/operations.md, "Several web nodes"): processes
 * started at the same moment on an empty database, readiness, and stopping a web node with
 * SIGTERM while requests run. Each test starts its own servers.
 */
const servers: RunningServer[] = [];
const pools: pg.Pool[] = [];
const children: ChildProcess[] = [];
let database: { admin: pg.Pool; name: string } | undefined;

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(pools.map((pool) => pool.end()));
  if (database) {
    await database.admin.query(`drop database if exists ${database.name} with (force)`);
    await database.admin.end();
  }
}, 120_000);

function pool(databaseUrl: string): pg.Pool {
  const created = serverPool(databaseUrl, 2);
  pools.push(created);
  return created;
}

async function started(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer({ env });
  servers.push(server);
  return server;
}

/** Runs a script of ours to its end, as npm would. */
function runToEnd(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const RATE_LIMIT = 20;
const METRICS_TOKEN = 'web-nodes-metrics-token-0123456789';
/** The nodes of the first block: a low shared rate limit over a long window (no test timing depends on it), a slow processor. */
const NODE_ENV = {
  API_RATE_LIMIT: String(RATE_LIMIT),
  API_RATE_LIMIT_WINDOW_SECONDS: '300',
  METRICS_TOKEN,
  SANDBOX_PROCESSOR_LATENCY_MS: '1500',
  SHUTDOWN_READINESS_DELAY_MS: '1000',
};

/** API keys of the first seller of a database, with every scope. */
async function newKeys(databaseUrl: string, count: number): Promise<string[]> {
  const db = serverDatabase(pool(databaseUrl));
  const [merchant] = await db.select().from(schema.merchants).limit(1);
  const keys = [];
  for (let index = 0; index < count; index++)
    keys.push((await createApiKey(db, { merchantId: merchant!.id, name: `node key ${index}`, scopes: SCOPES })).secret);
  return keys;
}

const demoKey = (server: RunningServer) => /Demo API key\s+(\S+)/.exec(server.output())![1]!;

/** Whether a new TCP connection to the server is refused (it stopped listening). */
function refusesConnections(server: RunningServer): Promise<boolean> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A one-time price of the demo seller, and a checkout of it that pays with the sandbox's tok_visa. */
async function slowCheckouts(server: RunningServer, amount: number) {
  const key = demoKey(server);
  const product = await call('POST', '/api/Product', { key, body: { name: `Drain ${amount}` }, baseUrl: server.baseUrl });
  const price = await call('POST', '/api/Price', {
    key,
    body: { productId: product.body.id, type: 'OneTime', amount, currency: 'USD' },
    baseUrl: server.baseUrl,
  });
  expect(price.status).toBe(201);
  return (index: number) =>
    call('POST', '/api/Checkout', {
      key,
      body: { priceId: price.body.id, customerEmail: `drain-${index}@example.com`, tokenRef: 'tok_visa' },
      headers: { 'Idempotency-Key': `drain-${amount}-${index}` },
      baseUrl: server.baseUrl,
    }).then(
      (answer) => String(answer.status),
      (error: Error) => `failed: ${error.message} ${String(error.cause ?? '')}`,
    );
}

/** Payments of `amount` past phase 1 and waiting for the (slow) processor. */
async function pendingPayments(db: pg.Pool, amount: number): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from payments where amount = $1 and status = 'pending'`, [amount]);
  return rows[0]!.count;
}

describe('two web nodes and a worker started at the same moment on an empty database', () => {
  // Shared by the tests of this block, in order: the nodes, their worker, a balancer in front.
  let nodes: RunningServer[] = [];
  let workerMetricsUrl = '';
  let balancer: Balancer;
  let databaseUrl = '';
  let worker: ChildProcess;
  let workerOutput = '';
  afterAll(() => balancer?.close());

  it('all start with npm run migrate alongside: migrations run once, under the lock, and the worker waits for them', async () => {
    // A fresh database on the suite's PostgreSQL, reached through DATABASE_URL as an external one.
    const admin = serverPool(inject('databaseUrl'), 1);
    const name = `web_nodes_${process.pid}_${Date.now()}`;
    await admin.query(`create database ${name}`);
    database = { admin, name };
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/${name}`;
    databaseUrl = url.href;
    const env = { DATABASE_URL: url.href, SECRET_KEY: 'web-nodes-test-secret-key-0123456789abcdef', ...NODE_ENV };
    const workerMetricsPort = await unusedPort();
    workerMetricsUrl = `http://127.0.0.1:${workerMetricsPort}/metrics`;

    worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'info', WORKER_METRICS_PORT: String(workerMetricsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(worker);
    worker.stdout!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    await eventually(async () => workerOutput.includes('waiting for the database schema'), 60_000, 'the worker waiting for the schema');
    // `npm run migrate` as a deploy would run it, at the same moment as the two web nodes.
    const migration = runToEnd('scripts/migrate.ts', { ...env, LOG_LEVEL: 'info' });
    const starts = await Promise.allSettled([startServer({ env }), startServer({ env })]);
    nodes = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    servers.push(...nodes);
    for (const start of starts) if (start.status === 'rejected') throw start.reason;
    const migrated = await migration;
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toContain('the database schema is up to date');

    for (const node of nodes) {
      const ready = await call('GET', '/api/health/ready', { baseUrl: node.baseUrl });
      expect(ready.status, node.output()).toBe(200);
      expect(ready.body).toEqual({ status: 'ready' });
      expect((await call('GET', '/api/Product', { key: demoKey(node), baseUrl: node.baseUrl })).status).toBe(200);
    }
    await eventually(async () => workerOutput.includes('webhook dispatcher started'), 60_000, 'the worker started');
    expect(workerOutput).not.toContain('does not exist');
    expect(worker.exitCode).toBeNull();

    // Each migration was applied once; readiness follows the journal's last one.
    const db = pool(url.href);
    const applied = await db.query<{ created_at: number }>('select created_at from drizzle.__drizzle_migrations order by created_at');
    const journal = JSON.parse(fs.readFileSync('db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    expect(applied.rows).toHaveLength(journal.entries.length);
    expect(new Set(applied.rows.map((row) => row.created_at)).size).toBe(applied.rows.length);
    const last = applied.rows.at(-1)!.created_at;
    await db.query('update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = $1', [last]);
    const pending = await call('GET', '/api/health/ready', { baseUrl: nodes[0]!.baseUrl });
    expect(pending.status).toBe(503);
    expect(pending.headers.get('content-type')).toBe('application/problem+json');
    expect(pending.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'migrations_pending' });
    await db.query('update drizzle.__drizzle_migrations set created_at = $1 where created_at = $2', [last, last - 1]);
    expect((await call('GET', '/api/health/ready', { baseUrl: nodes[0]!.baseUrl })).status).toBe(200);
    expect((await call('GET', '/api/health', { baseUrl: nodes[0]!.baseUrl })).body).toEqual({ status: 'ok' });
    balancer = await startBalancer(nodes.map((node) => node.baseUrl));
  }, 300_000);

  it('hold one API key to API_RATE_LIMIT in any window, wherever its requests land', async () => {
    const [key] = await newKeys(databaseUrl, 1);
    const answers = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/api/Product', { key, baseUrl: balancer.url })));
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted).toHaveLength(RATE_LIMIT);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(60 - RATE_LIMIT);
    // One count across both nodes: each accepted request saw a different number left.
    const remaining = accepted.map((answer) => Number(answer.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT }, (_, index) => index));
    for (const node of nodes) expect(balancer.answeredBy.get(node.baseUrl)).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it('keep sessions, refresh rotation and key revocation across nodes', async () => {
    const [first, second] = nodes.map((node) => node.baseUrl) as [string, string];
    const email = `nodes-${Date.now()}@example.com`;
    const registered = await call('POST', '/api/MerchantAuth/Register', {
      body: { email, password: 'correct horse battery staple', name: 'Nodes', accountType: 'Business' },
      baseUrl: first,
    });
    expect(registered.status, registered.text).toBe(201);
    const { accessToken, refreshToken } = registered.body;
    expect((await call('GET', '/api/Auth/Identity', { key: accessToken, baseUrl: second })).status).toBe(200);
    const refreshed = await call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken }, baseUrl: second });
    expect(refreshed.status).toBe(200);
    // Sent again within the 5-second grace (a lost answer), the other node answers the same pair.
    const resent = await call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken }, baseUrl: first });
    expect(resent.status).toBe(200);
    expect(resent.body.refreshToken).toBe(refreshed.body.refreshToken);

    const created = await call('POST', '/api/MerchantApiKey', {
      key: refreshed.body.accessToken,
      body: { name: 'nodes', scopes: ['products:read'] },
      baseUrl: first,
    });
    expect(created.status).toBe(201);
    expect((await call('GET', '/api/Product', { key: created.body.secret, baseUrl: second })).status).toBe(200);
    const revoked = await call('POST', `/api/MerchantApiKey/${created.body.id}/Revoke`, { key: refreshed.body.accessToken, baseUrl: second });
    expect(revoked.status).toBe(200);
    expect((await call('GET', '/api/Product', { key: created.body.secret, baseUrl: first })).status).toBe(401);

    expect((await call('POST', '/api/MerchantAuth/Logout', { key: refreshed.body.accessToken, baseUrl: first })).status).toBe(204);
    expect((await call('GET', '/api/Auth/Identity', { key: refreshed.body.accessToken, baseUrl: second })).status).toBe(401);
    expect((await call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken: refreshed.body.refreshToken }, baseUrl: second })).status).toBe(401);
  }, 60_000);

  it('serve Prometheus metrics behind METRICS_TOKEN, on web nodes and the worker', async () => {
    const refused = await fetch(`${nodes[0]!.baseUrl}/metrics`);
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${nodes[0]!.baseUrl}/metrics`, { headers: { authorization: 'Bearer not-the-metrics-token' } });
    expect(wrong.status).toBe(401);
    const scrapes = await Promise.all(nodes.map((node) => fetch(`${node.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })));
    for (const scraped of scrapes) {
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toContain('text/plain');
    }
    // The rate-limit test's requests, counted on whichever node answered them.
    const text = (await Promise.all(scrapes.map((scraped) => scraped.text()))).join('\n');
    expect(text).toMatch(/^paybase_http_requests_total\{method="GET",route="\/api\/Product",status="200"\} [1-9]/m);
    expect(text).toMatch(/^paybase_http_requests_total\{method="GET",route="\/api\/Product",status="429"\} [1-9]/m);
    expect(text).toMatch(/^paybase_http_request_duration_seconds_count\{method="GET",route="\/api\/Product"\} [1-9]/m);
    expect(text).toContain('paybase_database_up 1');
    expect(text).toMatch(/^paybase_payments_unsettled\{status="needs_review"\} 0$/m);
    expect(text).toMatch(/^paybase_database_pool_connections\{state="max"\} \d+$/m);
    expect(text).toMatch(/^paybase_jobs_due \d+$/m);
    expect(text).toMatch(/^paybase_webhook_deliveries_dead \d+$/m);
    // No path, id or key becomes a label.
    expect(text).not.toMatch(/prod_|sk_|cus_/);

    const worker = await fetch(workerMetricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(worker.status).toBe(200);
    expect(await worker.text()).toContain('paybase_jobs_oldest_due_seconds');
  }, 60_000);

  it('fail none of 40 checkouts through the balancer when one node is stopped with SIGTERM', async () => {
    const keys = await newKeys(databaseUrl, 3);
    const product = await call('POST', '/api/Product', { key: keys[0], body: { name: 'Balanced' }, baseUrl: balancer.url });
    const price = await call('POST', '/api/Price', {
      key: keys[0],
      body: { productId: product.body.id, type: 'OneTime', amount: 3303, currency: 'USD' },
      baseUrl: balancer.url,
    });
    expect(price.status).toBe(201);
    const answers = Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        call('POST', '/api/Checkout', {
          key: keys[1 + (index % 2)],
          body: { priceId: price.body.id, customerEmail: `balanced-${index}@example.com`, tokenRef: 'tok_visa' },
          headers: { 'Idempotency-Key': `balanced-${index}` },
          baseUrl: balancer.url,
        }).then(
          (answer) => String(answer.status),
          (error: Error) => `failed: ${error.message}`,
        ),
      ),
    );
    const db = pool(databaseUrl);
    await eventually(async () => (await pendingPayments(db, 3303)) >= 10, 20_000, 'checkouts at the processor');
    const [stopping, staying] = nodes as [RunningServer, RunningServer];
    stopping.terminate();
    const draining = await call('GET', '/api/health/ready', { baseUrl: stopping.baseUrl });
    expect(draining.status).toBe(503);
    expect(draining.body).toMatchObject({ reason: 'draining' });
    expect(await answers).toEqual(Array.from({ length: 40 }, () => '201'));
    expect(await stopping.exited()).toBe(143);
    // The balancer sends everything to the node left.
    const after = await Promise.all(Array.from({ length: 4 }, () => call('GET', '/api/health/ready', { baseUrl: balancer.url })));
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((await call('GET', `/api/Product/${product.body.id}`, { key: keys[0], baseUrl: staying.baseUrl })).status).toBe(200);
  }, 120_000);

  it('stop a worker with SIGTERM: it stops its dispatcher and job runner, then exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(workerOutput).toContain('webhook dispatcher stopped');
    expect(workerOutput).not.toMatch(/"level":50/);
  }, 60_000);
});

describe('a web node stopped with SIGTERM', () => {
  it('answers not ready (draining) at once, finishes its request, then refuses connections', async () => {
    const server = await started({ SHUTDOWN_READINESS_DELAY_MS: '10000', SANDBOX_PROCESSOR_LATENCY_MS: '1500' });
    const ready = await call('GET', '/api/health/ready', { baseUrl: server.baseUrl });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });

    const db = pool(server.databaseUrl);
    const checkout = await slowCheckouts(server, 2101);
    const inFlight = checkout(0);
    await eventually(async () => (await pendingPayments(db, 2101)) === 1, 20_000, 'the checkout at the processor');
    server.terminate();

    const draining = await eventually(
      async () => {
        const answer = await call('GET', '/api/health/ready', { baseUrl: server.baseUrl });
        return answer.status === 503 ? answer : undefined;
      },
      10_000,
      'readiness 503',
    );
    expect(draining.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'draining' });
    expect(draining.headers.get('connection')).toBe('close');
    expect(await inFlight).toBe('201');
    await eventually(() => refusesConnections(server), 20_000, 'connections refused');
    expect(await server.exited()).toBe(143);
  }, 120_000);

  it('fails none of 40 checkouts in flight, and refuses new connections meanwhile', async () => {
    const server = await started({ SANDBOX_PROCESSOR_LATENCY_MS: '1500' });
    const db = pool(server.databaseUrl);
    const checkout = await slowCheckouts(server, 2402);
    const answers = Promise.all(Array.from({ length: 40 }, (_, index) => checkout(index)));
    await eventually(async () => (await pendingPayments(db, 2402)) >= 20, 20_000, '20 checkouts at the processor');
    server.terminate();

    await eventually(() => refusesConnections(server), 10_000, 'connections refused');
    expect(await answers).toEqual(Array.from({ length: 40 }, () => '201'));
    expect(await server.exited()).toBe(143);
    expect(server.output()).not.toContain('unclean shutdown');
  }, 120_000);
});
