/**
 * Webhook delivery benchmark: starts the real service (embedded PostgreSQL, worker, Next.js)
 * with a fresh data directory, a receiver on 127.0.0.1, and measures
 *   - commit → first attempt latency (p50, p99), events committed one by one at a steady pace;
 *   - deliveries per second for a burst, to one endpoint and fanned out to four.
 * Results are appended to bench/RESULTS.md with the machine and the date.
 *
 *   npm run bench                      # defaults
 *   BENCH_BURST=5000 npm run bench     # a bigger burst
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../tests/setup/server';
import { startReceiver } from '../tests/helpers/webhook-receiver';

const PACED_EVENTS = Number(process.env.BENCH_PACED ?? 300);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 3000);
const WORKER_CONCURRENCY = process.env.WORKER_CONCURRENCY ?? '10';
const ENDPOINT_CONCURRENCY = process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? '4';

interface Scenario {
  name: string;
  deliveries: number;
  seconds: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  console.log('starting the service…');
  const server = await startServer({
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WORKER_CONCURRENCY, WEBHOOK_ENDPOINT_CONCURRENCY: ENDPOINT_CONCURRENCY, LOG_LEVEL: 'warn' },
  });
  process.env.DATABASE_URL = server.databaseUrl;
  const { getDb, closeDb } = await import('../lib/db/client');
  const { recordEvent } = await import('../lib/events/record-event');
  const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
  const merchantId = await merchantOfKey(server.baseUrl, key);

  /** First arrival of each (endpoint path, event id) at the receiver, in ms since epoch. */
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver((request) => {
    const id = `${request.path} ${request.headers['x-service-event-id']}`;
    if (!arrivals.has(id)) arrivals.set(id, request.receivedAt);
    return { status: 200 };
  });

  const results: Scenario[] = [];
  try {
    const createEndpoints = async (names: string[]) => {
      const ids: string[] = [];
      for (const name of names) {
        const response = await fetch(`${server.baseUrl}/api/WebhookEndpoint`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${receiver.url}/${name}`, events: ['product.created'] }),
        });
        if (response.status !== 201) throw new Error(`endpoint: ${response.status} ${await response.text()}`);
        ids.push(((await response.json()) as { id: string }).id);
      }
      return ids;
    };
    const disable = async (ids: string[]) => {
      for (const id of ids) {
        await fetch(`${server.baseUrl}/api/WebhookEndpoint/${id}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ enabled: false }),
        });
      }
    };
    const waitForArrivals = async (expected: number, scope: string) => {
      const deadline = Date.now() + 600_000;
      while ([...arrivals.keys()].filter((k) => k.startsWith(`/${scope}`)).length < expected) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${scope}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const summarize = (name: string, scope: string, commits: Map<string, number>, endpoints: string[]) => {
      const latencies: number[] = [];
      let last = 0;
      for (const [eventId, committedAt] of commits) {
        for (const endpoint of endpoints) {
          const arrived = arrivals.get(`/${scope}-${endpoint} ${eventId}`)!;
          latencies.push(arrived - committedAt);
          last = Math.max(last, arrived);
        }
      }
      latencies.sort((a, b) => a - b);
      const first = Math.min(...commits.values());
      const scenario = {
        name,
        deliveries: latencies.length,
        seconds: (last - first) / 1000,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      };
      console.log(scenario);
      results.push(scenario);
    };

    // 1. Latency at a steady pace: one event per transaction, one endpoint.
    {
      const ids = await createEndpoints(['paced-a']);
      const commits = new Map<string, number>();
      for (let i = 0; i < PACED_EVENTS; i++) {
        const event = await getDb().transaction((tx) => recordEvent(tx, { merchantId, type: 'product.created', object: { id: `prod_paced_${i}` } }));
        commits.set(event.id, Date.now());
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
      await waitForArrivals(PACED_EVENTS, 'paced');
      summarize(`paced: ${PACED_EVENTS} events at ${Math.round(1000 / PACE_MS)}/s → 1 endpoint`, 'paced', commits, ['a']);
      await disable(ids);
    }

    // 2. and 3. Bursts: committed 100 events per transaction as fast as possible.
    for (const [scope, endpoints] of [
      ['burst1', ['a']],
      ['burst4', ['a', 'b', 'c', 'd']],
    ] as const) {
      const ids = await createEndpoints(endpoints.map((e) => `${scope}-${e}`));
      const events = Math.round(BURST / endpoints.length);
      const commits = new Map<string, number>();
      for (let done = 0; done < events; ) {
        const size = Math.min(100, events - done);
        const batch = await getDb().transaction(async (tx) => {
          const recorded = [];
          for (let i = 0; i < size; i++) recorded.push(await recordEvent(tx, { merchantId, type: 'product.created', object: { id: `prod_${scope}_${done + i}` } }));
          return recorded;
        });
        const committedAt = Date.now();
        for (const event of batch) commits.set(event.id, committedAt);
        done += size;
      }
      await waitForArrivals(events * endpoints.length, scope);
      summarize(`burst: ${events} events → ${endpoints.length} endpoint${endpoints.length > 1 ? 's' : ''}`, scope, commits, [...endpoints]);
      await disable(ids);
    }
  } finally {
    await receiver.close();
    await closeDb();
    await server.stop();
  }
  writeResults(results);
}

async function merchantOfKey(baseUrl: string, key: string): Promise<string> {
  const { getDb } = await import('../lib/db/client');
  const { findApiKeyBySecret } = await import('../lib/auth/api-keys');
  const row = await findApiKeyBySecret(getDb(), key);
  if (!row) throw new Error(`demo key not found (${baseUrl})`);
  return row.merchantId;
}

function writeResults(results: Scenario[]) {
  const file = path.join(import.meta.dirname, 'RESULTS.md');
  const header = fs.existsSync(file)
    ? ''
    : '# Benchmark results\n\nWritten by `npm run bench` (bench/run.ts): the real service with embedded PostgreSQL and the worker in one process, a receiver on 127.0.0.1 answering 200 at once. Latency is from the commit of the event\'s transaction to the first attempt arriving at the receiver.\n';
  const cpu = os.cpus();
  const lines = [
    header,
    `## ${new Date().toISOString()}`,
    '',
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}.`,
    `Settings: WORKER_CONCURRENCY=${WORKER_CONCURRENCY}, WEBHOOK_ENDPOINT_CONCURRENCY=${ENDPOINT_CONCURRENCY}.`,
    '',
    '| scenario | deliveries | seconds | deliveries/s | commit → first attempt p50 | p99 |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) => `| ${r.name} | ${r.deliveries} | ${r.seconds.toFixed(1)} | ${(r.deliveries / r.seconds).toFixed(0)} | ${r.p50} ms | ${r.p99} ms |`,
    ),
    '',
  ];
  fs.appendFileSync(file, lines.join('\n'));
  console.log(`results appended to ${file}`);
}

// `npm run bench -- console`: the seller console benchmark (bench/console.ts).
(process.argv[2] === 'console' ? import('./console').then((bench) => bench.runConsoleBench()) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
