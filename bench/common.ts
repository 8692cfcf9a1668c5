import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { RunningServer } from '../tests/setup/server';
import { eventually } from '../tests/helpers/webhook-receiver';

/** One autocannon round of one endpoint. */
export interface Sample {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU milliseconds (user + system) per request of the server process and of PostgreSQL over the round. */
  serverCpuMs: number;
  postgresCpuMs: number;
  /** Seconds the worker took after the load to finish the jobs the round queued (counted in the CPU figures). */
  drainSeconds: number;
}

/**
 * Runs one autocannon round against the server and measures, beside rate and latency, the CPU
 * the server process and PostgreSQL used per request: a figure the other work on the machine
 * distorts far less than req/s (it slows the request, not the work each request takes).
 */
export async function measureRound(server: RunningServer, seconds: number, options: autocannon.Options): Promise<Sample> {
  const processes = () => ({ server: [serverPid(server.dataDir)], PostgreSQL: postgresPids(server.dataDir) });
  const before = cpuSeconds(processes());
  const result = await autocannon(options);
  const loadEnded = performance.now();
  await jobQueueDrained(server);
  const drainSeconds = (performance.now() - loadEnded) / 1000;
  const after = cpuSeconds(processes());
  const perRequest = (name: string) => ((after[name]! - before[name]!) * 1000) / Math.max(1, result.requests.total);
  return {
    rate: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    serverCpuMs: perRequest('server'),
    postgresCpuMs: perRequest('PostgreSQL'),
    drainSeconds,
  };
}

/**
 * Waits until the worker has run every job that is due (a checkout's receipt): a round's jobs
 * belong to its CPU figures, and must not run during the next round.
 */
export async function jobQueueDrained(server: RunningServer, timeoutMs = 300_000): Promise<void> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const due = 'select count(*)::int as due from graphile_worker.jobs where attempts < max_attempts and run_at <= now()';
    await eventually(async () => (await client.query<{ due: number }>(due)).rows[0]!.due === 0, timeoutMs, 'the worker running the queued jobs');
  } finally {
    await client.end();
  }
}

/** Table cells for the median round's CPU per request: server, PostgreSQL. */
export function cpuCells(runs: Sample[]): [server: string, postgres: string] {
  return [`${median(runs.map((s) => s.serverCpuMs)).toFixed(2)} ms`, `${median(runs.map((s) => s.postgresCpuMs)).toFixed(2)} ms`];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The demo seller's key from the server's banner. */
export function demoApiKey(server: RunningServer): string {
  return /Demo API key\s+(\S+)/.exec(server.output())![1]!;
}

/**
 * Setup calls to the developer API with the demo key (a fresh Idempotency-Key each): the parsed
 * body, and the round trips the server counted when DB_COUNT_ROUND_TRIPS is on. Throws on an error.
 */
export function demoApi(server: RunningServer, key: string) {
  return async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return { body: JSON.parse(text) as any, roundTrips: Number(response.headers.get('x-db-round-trips')) };
  };
}

/** The server process (scripts/start.ts writes its pid beside the database URL). */
export function serverPid(dataDir: string): number {
  return (JSON.parse(fs.readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as { pid: number }).pid;
}

/** The embedded PostgreSQL postmaster and its backends. */
export function postgresPids(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && procStat(Number(entry))?.ppid === postmaster);
  return [postmaster, ...children.map(Number)];
}

/** CPU seconds (user + system) used so far by each named group of processes, from /proc. */
export function cpuSeconds(groups: Record<string, number[]>): Record<string, number> {
  const ticksPerSecond = 100; // USER_HZ on Linux
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + (procStat(pid)?.ticks ?? 0), 0) / ticksPerSecond]),
  );
}

function procStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    // Fields after the command name (which may contain spaces): state, ppid, …, utime (14), stime (15),
    // cutime (16), cstime (17). The children's part keeps the time of PostgreSQL backends that
    // exited (an idle pool connection closed) in their postmaster's count, so a group's sum never drops.
    const fields = fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/** BENCH_PROFILE=dir writes a CPU profile of the server process (node --cpu-prof) there at its exit. */
export function profileArgs(): string[] {
  const dir = process.env.BENCH_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

/** The p-th percentile of ascending values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** p50 and p99 in ms of `runs` calls of `work`, one at a time, after 3 warm-up calls. */
export async function timeRuns(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 3; i += 1) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** The same in whole milliseconds. */
export async function timeRunsMs(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const { p50, p99 } = await timeRuns(runs, work);
  return { p50: Math.round(p50), p99: Math.round(p99) };
}

/**
 * Signs in to a console through its sign-in API and returns a loader for its pages: each call
 * fetches one page with the session cookies and fails unless it answers 200.
 */
export async function consolePageLoader(server: RunningServer, signIn: { path: string; body: Record<string, string>; cookiePrefix: string }) {
  const login = await fetch(`${server.baseUrl}${signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(signIn.body),
  });
  const pair = (await login.json()) as { accessToken: string; refreshToken: string };
  const cookie = `${signIn.cookiePrefix}_at=${pair.accessToken}; ${signIn.cookiePrefix}_rt=${pair.refreshToken}`;
  return (url: string) => async () => {
    const answer = await fetch(`${server.baseUrl}${url}`, { headers: { cookie }, redirect: 'manual' });
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    await answer.text();
  };
}
