/**
 * Webhook delivery benchmark: starts the real service (embedded PostgreSQL, in-process worker
 * and dispatcher, Next.js) with a fresh data directory and a receiver in its own process on
 * 127.0.0.1 (bench/receiver.ts), then measures
 *   1. burst drain to 1 endpoint and 2. to 10 endpoints: BENCH_BURST deliveries committed in
 *      one transaction, deliveries/s from the commit to the last arrival;
 *   3. steady: events created through the API (POST /api/Product) at BENCH_RATE/s for
 *      BENCH_SECONDS, fanned out to 10 endpoints: commit → first arrival p50/p99, from each
 *      event's real commit time (PostgreSQL runs with track_commit_timestamp=on for this), and
 *      the part of it before the attempt started (claimed and signed);
 *   4. the same with a dead endpoint (never answers, so every attempt runs into the timeout)
 *      holding 1,000 pending deliveries;
 *   5. burst drain to 10 and to 20 endpoints with a second dispatcher process (`npm run
 *      worker`), in rounds interleaved with the same burst while that process is paused (SIGSTOP);
 *   6. the same to 20 receivers that take BENCH_RECEIVER_DELAY_MS (250) to answer, where one
 *      process is bound by the attempts it may hold (WEBHOOK_MAX_IN_FLIGHT), not by the CPU.
 * Bursts also report the CPU time each process used (server, PostgreSQL, second dispatcher,
 * receiver). Results go to bench/RESULTS.md with the machine, the date, the commit and the load
 * average: the run's section appended to its history, its table replaced in "Current figures"
 * (bench/results-file.ts; every benchmark below writes the same way).
 *
 *   npm run bench                                  # the webhook benchmark, defaults
 *   BENCH_BURST=20000 BENCH_RATE=300 npm run bench # bigger
 *   BENCH_DISPATCHER=process BENCH_ONLY=steady,dead npm run bench
 *                     # the dispatcher in its own process (`npm run worker`, server RUN_WORKER=false)
 *   BENCH_PG_STATEMENTS=true BENCH_ONLY=steady npm run bench
 *                     # PostgreSQL's top statements by time after each scenario (pg_stat_statements)
 *   npm run bench -- api                           # the developer-API benchmark instead (bench/api.ts)
 *   npm run bench -- usage                         # usage ingestion and check-and-consume (bench/usage.ts)
 *   npm run bench -- operator                      # the platform admin's overview, seller page and audit log (bench/operator.ts)
 *   npm run bench -- lists                         # list pages at row 1 and row 100,000, by page and by cursor (bench/lists.ts)
 *   npm run bench -- documents                     # the hosted invoice page and its PDF in English and Japanese (bench/documents.ts)
 */
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { startServer } from '../tests/setup/server';
import { cpuSeconds, percentile, postgresPids, profileArgs, serverPid } from './common';
import { cpuShares, latencyRow, type Row, writeResults } from './webhook-results';

const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DEAD_BACKLOG = 1_000;
/** How long the receivers of scenario 6 take to answer. */
const RECEIVER_DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 250);
/** Interleaved rounds of the two-process burst and the same burst with the second process paused. */
const TWO_DISPATCHER_ROUNDS = 3;
/** BENCH_DISPATCHER=process: the server without its worker, and one `npm run worker` process. */
const SEPARATE_DISPATCHER = process.env.BENCH_DISPATCHER === 'process';
/** BENCH_PG_STATEMENTS=true: PostgreSQL loads pg_stat_statements and each scenario ends with its top statements. */
const STATEMENT_STATS = process.env.BENCH_PG_STATEMENTS === 'true';

interface Stats {
  total: number;
  duplicates: number;
  arrivals: [key: string, at: number, createdAt: number, objectId: string][];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const loadAtStart = os.loadavg();
  console.log('starting the service…');
  // track_commit_timestamp: the steady runs measure from each event's commit (pg_xact_commit_timestamp).
  const server = await startServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'warn',
      EMBEDDED_POSTGRES_SETTINGS: `track_commit_timestamp=on${STATEMENT_STATS ? ' shared_preload_libraries=pg_stat_statements' : ''}`,
      ...(SEPARATE_DISPATCHER ? { RUN_WORKER: 'false' } : {}),
    },
    nodeArgs: profileArgs(),
  });
  const { config, setDatabaseUrl } = await import('../lib/config');
  setDatabaseUrl(server.databaseUrl);
  const { getDb, closeDb } = await import('../lib/db/client');
  const { recordEvent } = await import('../lib/events/record-event');
  const { sampleEventObject } = await import('../lib/webhooks/samples');
  const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
  const merchantId = await merchantOfKey(key);
  const receiver = await startReceiverProcess();
  let worker: ChildProcess | undefined;
  let workerOutput = '';
  const startWorkerProcess = async () => {
    worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
      env: { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    while (!workerOutput.includes('webhook dispatcher started')) {
      if (worker.exitCode !== null) throw new Error(`worker exited:\n${workerOutput}`);
      await sleep(100);
    }
  };
  if (SEPARATE_DISPATCHER) await startWorkerProcess();
  const setup = SEPARATE_DISPATCHER ? ' [dispatcher in its own process]' : '';

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: string };
  };
  const createEndpoints = async (scope: string, count: number, events = ['product.created']) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await api('POST', '/api/WebhookEndpoint', { url: `${receiver.url}/${scope}-${i}`, events })).id);
    return ids;
  };
  const disable = async (ids: string[]) => {
    for (const id of ids) await api('PUT', `/api/WebhookEndpoint/${id}`, { enabled: false });
  };
  const stats = async (scope: string): Promise<Stats> => (await fetch(`${receiver.url}/_stats?prefix=/${scope}-`)).json() as Promise<Stats>;
  const waitForArrivals = async (scope: string, expected: number) => {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const current = await stats(scope);
      if (current.arrivals.length >= expected) return current;
      if (Date.now() > deadline) throw new Error(`${scope}: ${current.arrivals.length} of ${expected} arrived`);
      await sleep(100);
    }
  };

  const processes = () => ({
    server: [serverPid(server.dataDir)],
    PostgreSQL: postgresPids(server.dataDir),
    ...(worker?.pid ? { 'dispatcher process': [worker.pid] } : {}),
    receiver: [receiver.process.pid!],
    'benchmark client': [process.pid],
  });

  const rows: Row[] = [];
  if (STATEMENT_STATS) {
    await getDb().execute(sql`create extension if not exists pg_stat_statements`);
    await getDb().execute(sql`select pg_stat_statements_reset()`);
  }
  // 1, 2 and 5: bursts committed in one transaction; latency and rate from the commit.
  const burst = async (scope: string, endpoints: number, name: string, options: { deliveries?: number; record?: boolean } = {}) => {
    const ids = await createEndpoints(scope, endpoints);
    const events = Math.round((options.deliveries ?? BURST) / endpoints);
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < events; i++)
        await recordEvent(tx, { merchantId, type: 'product.created', object: sampleEventObject('product.created', `prod_${scope}_${i}`) });
    });
    const committedAt = Date.now();
    const cpuBefore = cpuSeconds(processes());
    const result = await waitForArrivals(scope, events * endpoints);
    const cpuAfter = cpuSeconds(processes());
    const latencies = result.arrivals.map(([, at]) => at - committedAt).sort((a, b) => a - b);
    const seconds = (Math.max(...result.arrivals.map(([, at]) => at)) - committedAt) / 1000;
    const cpu = cpuShares(cpuBefore, cpuAfter, (Date.now() - committedAt) / 1000);
    const row = latencyRow(name, latencies, seconds, result.duplicates, `CPU (one core = 100 %, 2 cores): ${cpu}`);
    console.log(row);
    if (STATEMENT_STATS) await printStatementStats(name);
    if (options.record !== false) rows.push(row);
    await disable(ids);
    return row;
  };

  /** Each steady event's commit time (ms), keyed by its product id; needs track_commit_timestamp. */
  const commitTimes = async (scope: string) => {
    const result = await getDb().execute<{ object_id: string; committed_ms: number }>(sql`
      select data->'object'->>'id' as object_id, extract(epoch from pg_xact_commit_timestamp(xmin)) * 1000 as committed_ms
      from events where type = 'product.created' and data->'object'->>'name' like ${`${scope} %`}`);
    return new Map(result.rows.map((row) => [row.object_id, Number(row.committed_ms)]));
  };
  /** Commit → the first attempt's start (claimed, signed, about to be sent), per delivery, sorted. */
  const commitToSend = async (scope: string) => {
    const result = await getDb().execute<{ ms: number }>(sql`
      select extract(epoch from min(a.started_at) - min(pg_xact_commit_timestamp(e.xmin))) * 1000 as ms
      from events e join webhook_deliveries d on d.event_id = e.id join webhook_attempts a on a.delivery_id = d.id
      where e.type = 'product.created' and e.data->'object'->>'name' like ${`${scope} %`}
      group by d.id`);
    return result.rows.map((row) => Math.round(Number(row.ms))).sort((a, b) => a - b);
  };

  // 3 and 4: events through the API at a steady rate; latency from each event's commit.
  const steady = async (scope: string, name: string, note?: string) => {
    const ids = await createEndpoints(scope, 10);
    const count = RATE * SECONDS;
    const cpuBefore = cpuSeconds(processes());
    const started = performance.now();
    const requests: Promise<unknown>[] = [];
    /** When each API answer came back: after its commit, so arrival minus it is a lower bound. */
    const answeredAt = new Map<string, number>();
    let failed = 0;
    for (let i = 0; i < count; i++) {
      const wait = started + (i * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      requests.push(
        api('POST', '/api/Product', { name: `${scope} ${i}` }).then(
          (product) => answeredAt.set(product.id, Date.now()),
          (error: Error) => {
            if (failed++ === 0) console.error(`first failed API request: ${error.message}`);
          },
        ),
      );
    }
    const offered = count / ((performance.now() - started) / 1000);
    await Promise.all(requests);
    const result = await waitForArrivals(scope, (count - failed) * 10);
    const cpu = cpuShares(cpuBefore, cpuSeconds(processes()), (performance.now() - started) / 1000);
    const committedAt = await commitTimes(scope);
    const latencies = result.arrivals.map(([, at, , objectId]) => Math.round(at - committedAt.get(objectId)!)).sort((a, b) => a - b);
    if (latencies.some(Number.isNaN)) throw new Error('an event without a commit timestamp (track_commit_timestamp off?)');
    const fromCreatedAt = result.arrivals.map(([, at, createdAt]) => at - createdAt).sort((a, b) => a - b);
    const lowerBounds = result.arrivals.map(([, at, , objectId]) => at - answeredAt.get(objectId)!).sort((a, b) => a - b);
    const toSend = await commitToSend(scope);
    const first = Math.min(...result.arrivals.map(([, , createdAt]) => createdAt));
    const seconds = (Math.max(...result.arrivals.map(([, at]) => at)) - first) / 1000;
    const row = latencyRow(
      name,
      latencies,
      seconds,
      result.duplicates,
      `${note ? `${note}; ` : ''}API events offered at ${offered.toFixed(0)}/s${failed ? `, ${failed} requests failed` : ''}; ` +
        `from the event's createdAt instead (before the commit, as measured before): p50 ${percentile(fromCreatedAt, 50)} ms, p99 ${percentile(fromCreatedAt, 99)} ms; ` +
        `from the API answer (after the commit): p50 ${percentile(lowerBounds, 50)} ms, p99 ${percentile(lowerBounds, 99)} ms; ` +
        `commit → the attempt's start (claimed and signed): p50 ${percentile(toSend, 50)} ms, p99 ${percentile(toSend, 99)} ms; CPU (one core = 100 %, 2 cores): ${cpu}`,
    );
    console.log(row);
    if (STATEMENT_STATS) await printStatementStats(name);
    rows.push(row);
    await disable(ids);
    return row;
  };

  try {
    if (runs('burst1')) await burst('burst1', 1, `burst: ${BURST} deliveries → 1 endpoint${setup}`);
    if (runs('burst10')) await burst('burst10', 10, `burst: ${BURST} deliveries → 10 endpoints${setup}`);
    if (runs('steady')) await steady('steady', `steady: ${RATE} API events/s × ${SECONDS} s → 10 endpoints${setup}`);
    if (runs('dead')) await deadEndpoint();
    if (!SEPARATE_DISPATCHER) {
      const instant = runs('two') ? [{ endpoints: 10 }, { endpoints: 20 }] : [];
      const slow = runs('twoslow') ? [{ endpoints: 20, slow: true }] : [];
      if (instant.length + slow.length > 0) await twoDispatchers([...instant, ...slow]);
    }
  } finally {
    worker?.kill('SIGTERM');
    receiver.process.kill('SIGTERM');
    await closeDb();
    await server.stop();
  }
  writeResults(rows, loadAtStart, config.webhooks);

  /** BENCH_PG_STATEMENTS=true: PostgreSQL's own account of where a scenario's time went (not a measurement to record). */
  async function printStatementStats(scenario: string) {
    console.log(`PostgreSQL's top statements in "${scenario}":`);
    const top = await getDb().execute(sql`
      select calls, round(total_exec_time) as total_ms, round(mean_exec_time::numeric, 2) as mean_ms, rows,
        left(regexp_replace(query, '\s+', ' ', 'g'), 100) as statement
      from pg_stat_statements order by total_exec_time desc limit 12`);
    console.table(top.rows);
    await getDb().execute(sql`select pg_stat_statements_reset()`);
  }

  async function deadEndpoint() {
    const deadIds = await createEndpoints('dead', 1, ['customer.created']);
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < DEAD_BACKLOG; i++)
        await recordEvent(tx, { merchantId, type: 'customer.created', object: sampleEventObject('customer.created', `cus_dead_${i}`) });
    });
    await sleep(500);
    const inFlightDead = async () =>
      (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${deadIds[0]!} and attempt_count = 0`))
        .rows[0]!.n;
    await steady('steadydead', `steady + dead endpoint with ${DEAD_BACKLOG} pending${setup}`, `dead endpoint: ${config.webhooks.timeoutMs} ms timeouts`);
    const deadStillPending = await inFlightDead();
    rows[rows.length - 1]!.note += `; ${deadStillPending} of its deliveries not yet attempted at the end`;
    await disable(deadIds);
  }

  /**
   * Bursts with a second dispatcher process and without it, interleaved (the second process is
   * paused with SIGSTOP, once it holds no lease, for the one-process bursts), so both see the
   * same machine; a row per case is the round with the median ratio. With 10 instant endpoints
   * one process's WEBHOOK_MAX_IN_FLIGHT (1,000) already takes every endpoint slot (10 × 100);
   * with 20 there are twice as many slots as one process may hold. With slow receivers a
   * process's slots turn over slowly, so its in-flight limit binds before the CPU does.
   */
  async function twoDispatchers(cases: { endpoints: number; slow?: boolean }[]) {
    await startWorkerProcess();
    // The server is warm from the runs before; the new process first gets the same (compiled
    // code, open connections), outside the measurement.
    const warmUp = Math.round(BURST / 5);
    await burst('warmup', 10, 'warm-up of the second dispatcher process', { deliveries: warmUp, record: false });
    let deliveries = warmUp;
    for (const { endpoints, slow } of cases) {
      const receivers = slow ? `${endpoints} endpoints answering after ${RECEIVER_DELAY_MS} ms` : `${endpoints} endpoints`;
      const scope = slow ? 'slow' : '';
      const rounds: { two: Row; ratio: number }[] = [];
      for (let round = 1; round <= TWO_DISPATCHER_ROUNDS; round++) {
        const two = await burst(`${scope}two${endpoints}x${round}`, endpoints, `burst: ${BURST} deliveries → ${receivers}, 2 dispatcher processes`, {
          record: false,
        });
        await leasesReleased();
        await pauseWorker();
        const one = await burst(`${scope}one${endpoints}x${round}`, endpoints, `burst: ${BURST} deliveries → ${receivers}, second process paused`, {
          record: false,
        });
        worker!.kill('SIGCONT');
        rounds.push({ two, ratio: two.deliveries / two.seconds / (one.deliveries / one.seconds) });
        deliveries += BURST;
      }
      const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
      const ratios = rounds.map((round) => `${round.ratio.toFixed(2)}×`).join(', ');
      rows.push({
        ...median.two,
        note: `${median.two.note}; ${median.ratio.toFixed(2)}× the rate of the same burst with the second process paused, run right after it (rounds: ${ratios}; median shown)`,
      });
    }
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker!.kill('SIGTERM');
    await exited;
    const sentByWorker = /"sent":(\d+)[^\n]*webhook dispatcher stopped/.exec(workerOutput)?.[1];
    rows[rows.length - 1]!.note += `; over all two-process rounds and the warm-up the second process sent ${sentByWorker ?? '?'} of ${deliveries} deliveries`;
  }

  /** SIGSTOP, but never in the middle of a claim (it would hold the claims' advisory lock). */
  async function pauseWorker() {
    for (;;) {
      worker!.kill('SIGSTOP');
      const held = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted`);
      if (held.rows[0]!.n === 0) return;
      worker!.kill('SIGCONT');
      await sleep(20);
    }
  }

  /** Until no delivery is leased: every attempt sent and recorded. */
  async function leasesReleased() {
    for (;;) {
      const leased = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from webhook_deliveries where lease_until is not null`);
      if (leased.rows[0]!.n === 0) return;
      await sleep(50);
    }
  }
}

/** BENCH_ONLY=burst1,steady runs some scenarios (figures to record come from a full run). */
function runs(scenario: string): boolean {
  const only = process.env.BENCH_ONLY;
  return !only || only.split(',').includes(scenario);
}

async function startReceiverProcess() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'receiver.ts')], {
    env: { ...process.env, RECEIVER_DELAY_MS: String(RECEIVER_DELAY_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child };
}

async function merchantOfKey(key: string): Promise<string> {
  const { getDb } = await import('../lib/db/client');
  const { findApiKeyBySecret } = await import('../lib/auth/api-keys');
  const row = await findApiKeyBySecret(getDb(), key);
  if (!row) throw new Error('demo key not found');
  return row.merchantId;
}

// `npm run bench -- api`: the developer-API benchmark (bench/api.ts); `-- console`: the seller
// console (bench/console.ts); `-- usage`: usage billing (bench/usage.ts); `-- lists`: list paging
// (bench/lists.ts); no argument: webhooks.
const benchmarks: Record<string, () => Promise<unknown>> = {
  api: () => import('./api').then((api) => api.runApiBenchmark()),
  console: () => import('./console').then((bench) => bench.runConsoleBench()),
  usage: () => import('./usage').then((bench) => bench.runUsageBenchmark()),
  operator: () => import('./operator').then((bench) => bench.runOperatorBench()),
  lists: () => import('./lists').then((bench) => bench.runListsBench()),
  documents: () => import('./documents').then((bench) => bench.runDocumentsBench()),
};
const benchmark = benchmarks[process.argv[2] ?? ''] ?? main;
benchmark().catch((error) => {
  console.error(error);
  process.exit(1);
});
