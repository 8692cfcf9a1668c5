/**
 * Developer-API benchmark (`npm run bench -- api`): starts the real service (`npm start`'s
 * scripts/start.ts: embedded PostgreSQL, worker, Next.js) with a fresh data directory and
 * measures, interleaved in one run with autocannon at 50 connections:
 *   - GET /api/health (one `select 1`): the server's floor;
 *   - GET /api/Product?pageSize=20 (an authenticated list read);
 *   - POST /api/Checkout (a fresh Idempotency-Key per request, tok_visa, an existing customer).
 * Before the load it sends each request once and reads the database round trips the server
 * counted for it (DB_COUNT_ROUND_TRIPS=true, lib/db/round-trips.ts). Results are appended to
 * bench/RESULTS.md with machine, date and load.
 *
 *   npm run bench -- api                              # 3 rounds of 10 s per endpoint
 *   BENCH_SECONDS=5 BENCH_ROUNDS=2 npm run bench -- api
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServer } from '../tests/setup/server';
import { demoApi, demoApiKey, median, sampleOf, type Sample } from './common';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

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
  const server = await startServer({ env: { DB_COUNT_ROUND_TRIPS: 'true', LOG_LEVEL: 'warn' } });
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
    ];

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
        const sample = await load(server.baseUrl, target, key);
        samples.get(target.name)!.push(sample);
        console.log(`round ${round + 1} ${target.name}: ${sample.rate.toFixed(0)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, errors ${sample.errors}`);
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

async function load(baseUrl: string, target: Target, key: string): Promise<Sample> {
  const result = await autocannon({
    url: baseUrl,
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
  return sampleOf(result, SECONDS);
}

function writeResults(targets: Target[], samples: Map<string, Sample[]>, roundTrips: Map<string, number>) {
  const file = path.join(import.meta.dirname, 'RESULTS.md');
  const cpu = os.cpus();
  const floor = median(samples.get(targets[0]!.name)!.map((s) => s.rate));
  const label = process.env.BENCH_LABEL ? ` — ${process.env.BENCH_LABEL}` : '';
  const lines = [
    '',
    `## API request path${label}: ${new Date().toISOString()}`,
    '',
    `\`npm run bench -- api\` (bench/api.ts): autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per endpoint against the service as \`npm start\` runs it; medians of the rounds.`,
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}.`,
    '',
    '| endpoint | DB round trips | req/s | share of health | p50 | p99 | non-2xx/errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...targets.map((target) => {
      const runs = samples.get(target.name)!;
      const rate = median(runs.map((s) => s.rate));
      return `| ${target.name} | ${roundTrips.get(target.name)} | ${rate.toFixed(0)} | ${((rate / floor) * 100).toFixed(0)} % | ${median(runs.map((s) => s.p50))} ms | ${median(runs.map((s) => s.p99))} ms | ${runs.reduce((n, s) => n + s.errors, 0)} |`;
    }),
    '',
  ];
  fs.appendFileSync(file, lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(`results appended to ${file}`);
}
