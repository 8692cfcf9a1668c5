/**
 * Developer-API benchmark (`npm run bench -- api`): starts the real service (`npm start`'s
 * scripts/start.ts: embedded PostgreSQL, worker, Next.js) with a fresh data directory and
 * measures, interleaved in one run with autocannon at 50 connections:
 *   - GET /api/health (one `select 1`): the server's floor;
 *   - GET /api/Product?pageSize=20 (an authenticated list read);
 *   - POST /api/Checkout (a fresh Idempotency-Key per request, tok_visa, an existing customer).
 * Before the load it sends each request once and reads the database round trips the server
 * counted for it (DB_COUNT_ROUND_TRIPS=true, lib/db/round-trips.ts); each round also measures the
 * server's and PostgreSQL's CPU milliseconds per request (bench/common.ts), counted until the worker
 * has run the jobs the round queued (a checkout's receipt), so that work is the
 * checkout's and does not run during the next round. Results go to bench/RESULTS.md
 * (bench/results-file.ts) with machine, date, commit and load.
 *
 *   npm run bench -- api                              # 3 rounds of 10 s per endpoint
 *   BENCH_SECONDS=5 BENCH_ROUNDS=2 npm run bench -- api
 *   BENCH_PROFILE=/tmp/prof BENCH_ONLY=Checkout BENCH_ROUNDS=1 npm run bench -- api   # a CPU profile (not a measurement)
 */
import crypto from 'node:crypto';
import { startServer, type RunningServer } from '../tests/setup/server';
import { cpuCells, demoApi, demoApiKey, measureRound, median, profileArgs, type Sample } from './common';
import { finishedRun, markdownTable, recordRun, runLines } from './results-file';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
/** BENCH_ONLY=Checkout (words of endpoint names, comma-separated): health and those only, e.g. for a CPU profile of one path (BENCH_PROFILE). */
const ONLY = process.env.BENCH_ONLY?.split(',');

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  auth: boolean;
  body?: string;
  freshIdempotencyKey?: boolean;
}

export async function runApiBenchmark() {
  console.log('starting the service…');
  const server = await startServer({ env: { DB_COUNT_ROUND_TRIPS: 'true', LOG_LEVEL: 'warn' }, nodeArgs: profileArgs() });
  try {
    const key = demoApiKey(server);
    const call = demoApi(server, key);
    // A catalog to list and buy from, and a returning customer.
    let priceId = '';
    for (let i = 0; i < 25; i++) {
      const product = await call('POST', '/api/Product', { name: `Bench product ${i}` });
      const price = await call('POST', '/api/Price', { productId: product.body.id, type: 'OneTime', amount: 1000 + i, currency: 'USD' });
      priceId = price.body.id;
    }
    const customer = await call('POST', '/api/Customer', { email: 'bench@example.com', name: 'Bench' });
    const checkoutBody = JSON.stringify({ priceId, customerId: customer.body.id, tokenRef: 'tok_visa' });
    const targets: Target[] = [
      { name: 'GET /api/health', method: 'GET', path: '/api/health', auth: false },
      { name: 'GET /api/Product?pageSize=20', method: 'GET', path: '/api/Product?pageSize=20', auth: true },
      { name: 'POST /api/Checkout', method: 'POST', path: '/api/Checkout', auth: true, body: checkoutBody, freshIdempotencyKey: true },
    ].filter((target) => !ONLY || target.name === 'GET /api/health' || ONLY.some((word) => target.name.includes(word))) as Target[];

    const roundTrips = new Map<string, number>();
    for (const target of targets) {
      // The second of two calls: the first may warm caches (statements, API-key use stamp).
      let counted = 0;
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${server.baseUrl}${target.path}`, {
          method: target.method,
          headers: headersOf(target, key),
          body: target.body,
        });
        await response.text();
        counted = Number(response.headers.get('x-db-round-trips'));
      }
      roundTrips.set(target.name, counted);
    }

    const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const sample = await load(server, target, key);
        samples.get(target.name)!.push(sample);
        console.log(
          `round ${round + 1} ${target.name}: ${sample.rate.toFixed(0)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, CPU per request: server ${sample.serverCpuMs.toFixed(2)} ms, PostgreSQL ${sample.postgresCpuMs.toFixed(2)} ms, queued jobs done ${sample.drainSeconds.toFixed(1)} s after the load, errors ${sample.errors}`,
        );
      }
    }
    writeResults(targets, samples, roundTrips);
  } finally {
    await server.stop();
  }
}

function headersOf(target: Target, key: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (target.auth) headers.authorization = `Bearer ${key}`;
  if (target.body) headers['content-type'] = 'application/json';
  if (target.freshIdempotencyKey) headers['idempotency-key'] = crypto.randomUUID();
  return headers;
}

function load(server: RunningServer, target: Target, key: string): Promise<Sample> {
  return measureRound(server, SECONDS, {
    url: server.baseUrl,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: target.method,
        path: target.path,
        body: target.body,
        setupRequest: (request) => ({ ...request, headers: headersOf(target, key) }),
      },
    ],
  });
}

function writeResults(targets: Target[], samples: Map<string, Sample[]>, roundTrips: Map<string, number>) {
  const run = finishedRun();
  const floor = median(samples.get(targets[0]!.name)!.map((s) => s.rate));
  const label = process.env.BENCH_LABEL ? ` — ${process.env.BENCH_LABEL}` : '';
  const columns = [
    'endpoint',
    'DB round trips',
    'server CPU / request',
    'PostgreSQL CPU / request',
    'req/s',
    'share of health',
    'p50',
    'p99',
    'non-2xx/errors',
    'jobs done after',
  ];
  const rows = targets.map((target) => {
    const runs = samples.get(target.name)!;
    const rate = median(runs.map((s) => s.rate));
    return [
      target.name,
      String(roundTrips.get(target.name)),
      ...cpuCells(runs),
      rate.toFixed(0),
      `${((rate / floor) * 100).toFixed(0)} %`,
      `${median(runs.map((s) => s.p50))} ms`,
      `${median(runs.map((s) => s.p99))} ms`,
      String(runs.reduce((n, s) => n + s.errors, 0)),
      `${median(runs.map((s) => s.drainSeconds)).toFixed(1)} s`,
    ];
  });
  const lines = [
    '',
    `## API request path${label}: ${run.date}`,
    '',
    `\`npm run bench -- api\` (bench/api.ts): autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per endpoint against the service as \`npm start\` runs it; medians of the rounds. CPU per request: the server process's and PostgreSQL's CPU time (user + system, /proc) from the round's start until the worker has run the jobs it queued, divided by its requests; "jobs done after" is how long after the load that took.`,
    ...runLines(run),
    '',
    ...markdownTable(columns, rows),
    '',
  ];
  console.log(lines.join('\n'));
  recordRun(run, lines, {
    benchmark: 'api',
    title: 'Developer API request path (`npm run bench -- api`)',
    about: `autocannon, ${CONNECTIONS} connections, medians of ${ROUNDS} interleaved rounds of ${SECONDS} s per endpoint; share of health is the rate against GET /api/health in the same run; CPU per request counted until the worker has run the jobs the round queued.`,
    columns,
    rows,
  });
}
