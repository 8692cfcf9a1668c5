import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../helpers/api';
import { serverPool } from '../helpers/server-pool';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { startServer, unusedPort, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';

/**
 * Paybase behind PgBouncer in transaction mode (docs/operations.md, "Connection budget"):
 * Debian's `pgbouncer` (1.18, which keeps no prepared statements in that mode) in front of a
 * fresh database of the suite's PostgreSQL. Requests go through it with
 * DATABASE_PREPARED_STATEMENTS=false; the migration lock, LISTEN and graphile-worker use
 * DATABASE_DIRECT_URL. `.ci/run` installs pgbouncer.
 */
const PGBOUNCER = '/usr/sbin/pgbouncer';

let bouncer: ChildProcess | undefined;
let server: RunningServer | undefined;
let receiver: Receiver | undefined;
let admin: pg.Pool | undefined;
let directory = '';
const name = `bounced_${process.pid}_${Date.now()}`;
let bouncerPort = 0;

beforeAll(async () => {
  expect(fs.existsSync(PGBOUNCER), 'PgBouncer is not installed: apt-get install pgbouncer (.ci/run does)').toBe(true);
  admin = serverPool(inject('databaseUrl'), 1);
  await admin.query(`create database ${name}`);
  const direct = new URL(inject('databaseUrl'));
  direct.pathname = `/${name}`;

  // PgBouncer refuses to run as root: as root it is started as `nobody`, which must read its files.
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  fs.chmodSync(directory, 0o755);
  bouncerPort = await unusedPort();
  const user = decodeURIComponent(direct.username);
  fs.writeFileSync(path.join(directory, 'userlist.txt'), `"${user}" "${decodeURIComponent(direct.password)}"\n`, { mode: 0o644 });
  fs.writeFileSync(
    path.join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `${name} = host=${direct.hostname} port=${direct.port} dbname=${name}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${bouncerPort}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${path.join(directory, 'userlist.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      'default_pool_size = 4',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  bouncer = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), path.join(directory, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  bouncer.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  bouncer.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(async () => output.includes('process up'), 20_000, `pgbouncer to start:\n${output}`);

  const bounced = new URL(direct.href);
  bounced.port = String(bouncerPort);
  server = await startServer({
    env: {
      ...WEBHOOK_TEST_ENV,
      DATABASE_URL: bounced.href,
      DATABASE_DIRECT_URL: direct.href,
      DATABASE_PREPARED_STATEMENTS: 'false',
      DATABASE_POOL_SIZE: '20',
      SECRET_KEY: 'pgbouncer-test-secret-key-0123456789abcdef',
    },
  });
  receiver = await startReceiver();
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  bouncer?.kill('SIGTERM');
  if (bouncer && bouncer.exitCode === null) await new Promise((resolve) => bouncer!.once('exit', resolve));
  await admin?.query(`drop database if exists ${name} with (force)`);
  await admin?.end();
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
}, 120_000);

/** Transactions PgBouncer has passed to the database so far (its admin console's SHOW STATS). */
async function bouncedTransactions(): Promise<number> {
  const direct = new URL(inject('databaseUrl'));
  const console = new pg.Client({
    host: '127.0.0.1',
    port: bouncerPort,
    user: decodeURIComponent(direct.username),
    password: decodeURIComponent(direct.password),
    database: 'pgbouncer',
  });
  await console.connect();
  try {
    const { rows } = await console.query<{ database: string; total_xact_count: string }>('SHOW STATS');
    return Number(rows.find((row) => row.database === name)?.total_xact_count ?? 0);
  } finally {
    await console.end();
  }
}

describe('behind PgBouncer in transaction mode, without prepared statements', () => {
  it('migrates, takes payments and subscriptions under concurrency, runs jobs and delivers webhooks', async () => {
    const key = /Demo API key\s+(\S+)/.exec(server!.output())![1]!;
    const api = (method: string, route: string, body?: unknown, headers?: Record<string, string>) =>
      call(method, route, { key, body, headers, baseUrl: server!.baseUrl });
    const before = await bouncedTransactions();

    const endpoint = await api('POST', '/api/WebhookEndpoint', { url: `${receiver!.url}/hook`, events: ['payment.succeeded'] });
    expect(endpoint.status, endpoint.text).toBe(201);
    const product = await api('POST', '/api/Product', { name: 'Bounced' });
    const oneTime = await api('POST', '/api/Price', { productId: product.body.id, type: 'OneTime', amount: 1500, currency: 'USD' });
    const monthly = await api('POST', '/api/Price', { productId: product.body.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    expect([oneTime.status, monthly.status]).toEqual([201, 201]);

    const checkouts = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api(
          'POST',
          '/api/Checkout',
          { priceId: index % 3 === 0 ? monthly.body.id : oneTime.body.id, customerEmail: `bounced-${index}@example.com`, tokenRef: 'tok_visa' },
          { 'Idempotency-Key': `bounced-${index}` },
        ),
      ),
    );
    expect(checkouts.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 201));
    expect(checkouts.every((answer) => answer.body.paid === true)).toBe(true);
    const subscriptions = await api('GET', '/api/Subscription?pageSize=100');
    expect(subscriptions.body.data).toHaveLength(10);
    // A replay answers the stored result.
    const replay = await api(
      'POST',
      '/api/Checkout',
      { priceId: oneTime.body.id, customerEmail: 'bounced-1@example.com', tokenRef: 'tok_visa' },
      { 'Idempotency-Key': 'bounced-1' },
    );
    expect(replay.body.id).toBe(checkouts[1]!.body.id);

    // The dispatcher (LISTEN on the direct connection) delivers every payment's event.
    await eventually(async () => receiver!.received.filter((request) => request.body.includes('payment.succeeded')).length >= 30, 30_000, '30 webhooks');
    expect((await call('GET', '/api/health/ready', { baseUrl: server!.baseUrl })).status).toBe(200);
    expect(await bouncedTransactions()).toBeGreaterThan(before + 100);
    expect(server!.output()).not.toMatch(/prepared statement .* does not exist|database client lost/);
  }, 120_000);
});
