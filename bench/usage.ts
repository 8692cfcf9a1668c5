/**
 * Usage-billing benchmark (`npm run bench -- usage`): starts the real service (`npm start`'s
 * scripts/start.ts) with a fresh data directory and measures
 *   1. POST /api/Usage/Batch: BENCH_BATCHES batches of 1,000 new records (each with its own
 *      `id`, spread over 20 customers with a Limited override and a credit grant, so the limit
 *      and the credits are both metered), sent by 4 concurrent senders → records/s; then the
 *      same batches again (every record a duplicate) → records/s of deduplication alone;
 *   2. POST /api/Customer/{id}/Entitlement/Check with `consume: true` (autocannon, 50
 *      connections, each request for one of 200 customers at random) against GET /api/health,
 *      interleaved, BENCH_ROUNDS rounds of BENCH_SECONDS s: req/s, p50, p99, share of health,
 *      round trips and the server's and PostgreSQL's CPU milliseconds per request.
 * Results go to bench/RESULTS.md (bench/results-file.ts) with machine, date, commit and load.
 *
 *   npm run bench -- usage
 *   BENCH_BATCHES=50 BENCH_SECONDS=5 BENCH_ROUNDS=2 npm run bench -- usage
 *   BENCH_PROFILE=/tmp/prof BENCH_BATCHES=2 BENCH_ROUNDS=1 npm run bench -- usage   # a CPU profile (not appended)
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { startServer, type RunningServer } from '../tests/setup/server';
import { cpuCells, demoApi, demoApiKey, measureRound, median, profileArgs, type Sample } from './common';
import { finishedRun, markdownTable, recordRun, runLines } from './results-file';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 100);
const SENDERS = 4;
const BATCH_SIZE = 1_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const INGEST_CUSTOMERS = 20;
const CHECK_CUSTOMERS = 200;

export async function runUsageBenchmark() {
  const loadAtStart = os.loadavg();
  console.log('starting the service…');
  const server = await startServer({ env: { LOG_LEVEL: 'warn', DB_COUNT_ROUND_TRIPS: 'true' }, nodeArgs: profileArgs() });
  try {
    const key = demoApiKey(server);
    const call = demoApi(server, key);
    const newCustomer = async (i: number, limit: number, credits: number) => {
      const { body: customer } = await call('POST', '/api/Customer', { email: `usage-bench-${i}-${crypto.randomUUID()}@example.com` });
      await call('POST', `/api/Customer/${customer.id}/EntitlementOverride`, { feature: 'messages', allowed: 'Limited', limit });
      await call('POST', `/api/Customer/${customer.id}/CreditGrant`, { feature: 'messages', amount: credits, reason: 'bench' });
      return customer.id as string;
    };
    const ingestCustomers: string[] = [];
    for (let i = 0; i < INGEST_CUSTOMERS; i++) ingestCustomers.push(await newCustomer(i, 2_000, 1_000_000));
    const checkCustomers: string[] = [];
    for (let i = 0; i < CHECK_CUSTOMERS; i++) checkCustomers.push(await newCustomer(i, 1_000_000_000, 1_000));

    const batches = Array.from({ length: BATCHES }, (_, b) =>
      JSON.stringify({
        records: Array.from({ length: BATCH_SIZE }, (_, i) => ({
          id: `bench-${b}-${i}`,
          customerId: ingestCustomers[i % INGEST_CUSTOMERS],
          feature: 'messages',
          quantity: 1,
          properties: { model: 'small' },
        })),
      }),
    );
    const ingest = async (expectStatus: number) => {
      let next = 0;
      let counted = 0;
      const started = performance.now();
      const sender = async () => {
        while (next < batches.length) {
          const body = batches[next++]!;
          const response = await fetch(`${server.baseUrl}/api/Usage/Batch`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body,
          });
          const answer = (await response.json()) as { data: { status: number }[] };
          if (response.status !== 200) throw new Error(`batch: ${response.status} ${JSON.stringify(answer)}`);
          counted += answer.data.filter((item) => item.status === expectStatus).length;
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
      const seconds = (performance.now() - started) / 1000;
      return { records: counted, seconds, rate: counted / seconds };
    };
    const fresh = await ingest(201);
    console.log(`batch ingest (new): ${fresh.records} records in ${fresh.seconds.toFixed(2)} s = ${fresh.rate.toFixed(0)} records/s`);
    const duplicates = await ingest(200);
    console.log(`batch ingest (all duplicates): ${duplicates.records} records in ${duplicates.seconds.toFixed(2)} s = ${duplicates.rate.toFixed(0)} records/s`);

    const health = { name: 'GET /api/health', method: 'GET' as const, path: () => '/api/health', body: undefined };
    const check = {
      name: 'POST /api/Customer/{id}/Entitlement/Check (consume)',
      method: 'POST' as const,
      path: () => `/api/Customer/${checkCustomers[Math.floor(Math.random() * CHECK_CUSTOMERS)]}/Entitlement/Check`,
      body: JSON.stringify({ feature: 'messages', consume: true }),
    };
    // Round trips the server counted for one request of each (DB_COUNT_ROUND_TRIPS), after a warm-up one.
    const roundTrips = new Map<string, number>();
    for (const target of [health, check]) {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${server.baseUrl}${target.path()}`, {
          method: target.method,
          headers: { authorization: `Bearer ${key}`, ...(target.body ? { 'content-type': 'application/json' } : {}) },
          body: target.body,
        });
        await response.text();
        roundTrips.set(target.name, Number(response.headers.get('x-db-round-trips')));
      }
    }
    const samples = new Map<string, Sample[]>([
      [health.name, []],
      [check.name, []],
    ]);
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of [health, check]) {
        const sample = await load(server, key, target, (body) => {
          if (body.includes('"allowed":false')) refused++;
        });
        samples.get(target.name)!.push(sample);
        console.log(
          `round ${round + 1} ${target.name}: ${sample.rate.toFixed(0)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, CPU per request: server ${sample.serverCpuMs.toFixed(2)} ms, PostgreSQL ${sample.postgresCpuMs.toFixed(2)} ms, errors ${sample.errors}`,
        );
      }
    }
    writeResults({ fresh, duplicates, samples, roundTrips, health: health.name, check: check.name, refused, loadAtStart });
  } finally {
    await server.stop();
  }
}

function load(
  server: RunningServer,
  key: string,
  target: { method: 'GET' | 'POST'; path: () => string; body?: string },
  onBody: (body: string) => void,
): Promise<Sample> {
  return measureRound(server, SECONDS, {
    url: server.baseUrl,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: target.method,
        setupRequest: (request) => ({
          ...request,
          path: target.path(),
          body: target.body,
          headers: { authorization: `Bearer ${key}`, ...(target.body ? { 'content-type': 'application/json' } : {}) },
        }),
        onResponse: (_status, body) => onBody(body),
      },
    ],
  });
}

interface Results {
  fresh: { records: number; seconds: number; rate: number };
  duplicates: { records: number; seconds: number; rate: number };
  samples: Map<string, Sample[]>;
  roundTrips: Map<string, number>;
  health: string;
  check: string;
  refused: number;
  loadAtStart: number[];
}

function writeResults(results: Results) {
  const run = finishedRun(results.loadAtStart);
  const floor = median(results.samples.get(results.health)!.map((s) => s.rate));
  const figures = (name: string) => {
    const runs = results.samples.get(name)!;
    const rate = median(runs.map((s) => s.rate));
    return {
      roundTrips: String(results.roundTrips.get(name)),
      cpu: cpuCells(runs),
      rate: `${rate.toFixed(0)} req/s`,
      share: `${((rate / floor) * 100).toFixed(0)} %`,
      p50: `${median(runs.map((s) => s.p50))} ms`,
      p99: `${median(runs.map((s) => s.p99))} ms`,
      errors: String(runs.reduce((n, s) => n + s.errors, 0)),
    };
  };
  const endpointRow = (name: string) => {
    const { roundTrips, cpu, rate, share, p50, p99, errors } = figures(name);
    return [name, roundTrips, ...cpu, rate, share, p50, p99, errors];
  };
  const ingestRow = (name: string, ingest: Results['fresh']) => [name, String(ingest.records), ingest.seconds.toFixed(2), ingest.rate.toFixed(0)];
  const label = process.env.BENCH_LABEL ? ` — ${process.env.BENCH_LABEL}` : '';
  const lines = [
    '',
    `## Usage billing${label}: ${run.date}`,
    '',
    `\`npm run bench -- usage\` (bench/usage.ts) against the service as \`npm start\` runs it (embedded PostgreSQL, fresh data directory).`,
    ...runLines(run),
    '',
    ...markdownTable(
      [
        `batch ingest (${SENDERS} concurrent senders, ${BATCH_SIZE} records per batch, ${INGEST_CUSTOMERS} customers, limit + credits metered)`,
        'records',
        'seconds',
        'records/s',
      ],
      [ingestRow('new records (201)', results.fresh), ingestRow('the same batches again (every record a duplicate, 200)', results.duplicates)],
    ),
    '',
    ...markdownTable(
      [
        `endpoint (autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, medians; Check over ${CHECK_CUSTOMERS} customers at random)`,
        'DB round trips',
        'server CPU / request',
        'PostgreSQL CPU / request',
        'rate',
        'share of health',
        'p50',
        'p99',
        'non-2xx/errors',
      ],
      [endpointRow(results.health), endpointRow(results.check)],
    ),
    '',
    `Check answers with \`allowed: false\`: ${results.refused} (the limits are set high enough that none should be). CPU per request: the server process's and PostgreSQL's CPU time (user + system, /proc) from the round's start until the worker has run the jobs it queued, divided by its requests; round trips as counted by the server (DB_COUNT_ROUND_TRIPS=true, on for the whole run).`,
    '',
  ];
  console.log(lines.join('\n'));
  const notMeasured = Array<string>(6).fill('not measured');
  const currentRow = (name: string) => {
    const { roundTrips, cpu, rate, share, p50, p99 } = figures(name);
    return [name, rate, share, p50, p99, roundTrips, ...cpu];
  };
  recordRun(run, lines, {
    benchmark: 'usage',
    title: 'Usage billing (`npm run bench -- usage`)',
    about: `Batch ingest: ${SENDERS} concurrent senders of ${BATCH_SIZE} records per batch. Endpoints: autocannon, ${CONNECTIONS} connections, medians of ${ROUNDS} interleaved rounds of ${SECONDS} s; share of health is the rate against GET /api/health in the same run.`,
    columns: ['scenario', 'rate', 'share of health', 'p50', 'p99', 'DB round trips', 'server CPU / request', 'PostgreSQL CPU / request'],
    rows: [
      ['POST /api/Usage/Batch, new records', `${results.fresh.rate.toFixed(0)} records/s`, ...notMeasured],
      ['POST /api/Usage/Batch, every record a duplicate', `${results.duplicates.rate.toFixed(0)} records/s`, ...notMeasured],
      currentRow(results.health),
      currentRow(results.check),
    ],
  });
}
