import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { isPortFree } from '../../lib/net';

/**
 * Settings of the server under test: it trusts X-Forwarded-For (tests give each client its own
 * address), allows fewer failed sign-ins per address and per account (the backstop), so the
 * limits are reached quickly, and
 * hashes passwords with a cheap scrypt cost (production keeps the OWASP floor). The suite and the
 * benchmarks (which start their server here too) send many requests with one API key: its rate
 * limit is set out of their reach (tests/integration/api-rate-limit.test.ts starts a server with
 * a low one).
 */
export const TEST_SERVER_ENV = {
  TRUST_PROXY: 'true',
  SIGN_IN_MAX_FAILURES_PER_IP: '12',
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '20',
  PASSWORD_SCRYPT_LOG2_N: '12',
  API_RATE_LIMIT: '1000000000',
} as const;

/**
 * Settings of the suite's servers, not the benchmarks' (they measure what production does).
 * PostgreSQL does not wait for the disk: a commit returns before its WAL is flushed, nothing is
 * fsynced. A crash test kills the web server and worker, not PostgreSQL (the next start stops it
 * cleanly, writing everything out), so no test loses a committed row by it; the one that kills
 * PostgreSQL (embedded-postgres-restart.test.ts) runs it with the defaults. Next.js loads a
 * page's module when it is first requested rather than every module at start: most servers a
 * test starts answer a few routes.
 */
export const SUITE_SERVER_ENV = {
  EMBEDDED_POSTGRES_SETTINGS: 'fsync=off synchronous_commit=off full_page_writes=off',
  PRELOAD_PAGES: 'false',
};

export interface RunningServer {
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Ctrl-C: the ordered shutdown, then the data directory is removed. */
  stop(): Promise<void>;
  /** SIGTERM to the launcher, as a supervisor stopping it (systemd, Docker, Kubernetes); returns at once. */
  terminate(): void;
  /** kill -9 of the launcher (web server and worker), as a crash would; the data directory stays. */
  kill(): Promise<void>;
  /** Settles with the launcher's exit code when it exits by itself (null: ended by a signal). */
  exited(): Promise<number | null>;
}

/**
 * Starts the real service (scripts/start.ts: embedded PostgreSQL, migrations, worker, Next.js)
 * with its own data directory and port, exactly as `npm start` does. With `DATABASE_URL` in
 * `env` it uses that database instead of starting an embedded one.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  // The launcher takes its port first thing; another process may still have taken it since it
  // was found free. Then the launcher stops at once, and it is started again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await unusedPort(), options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 5) throw error;
    }
  }
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  nodeArgs?: string[];
}

class PortTakenError extends Error {}

/**
 * A port nothing listens on, below Linux's ephemeral range (32768–60999): every listen(0) of the
 * suite (receivers, embedded PostgreSQL) and every outgoing connection draws from that range, so
 * a port found free outside it stays free until the process it is meant for takes it.
 */
export async function unusedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + crypto.randomInt(12_000);
    if (await isPortFree(port)) return port;
  }
}

/** A launched `npm start` (scripts/start.ts): its process, data directory and output so far. */
export interface Launch {
  child: ChildProcess;
  dataDir: string;
  output(): string;
  /** Settles with the launcher's exit code when it exits (null: ended by a signal). */
  exited: Promise<number | null>;
  /** Ctrl-C if it still runs: the ordered shutdown, then the data directory is removed. */
  stop(): Promise<void>;
}

/**
 * Starts the launcher on `port` with the suite's settings and returns at once, before it serves.
 * It gets its own data directory unless `options.dataDir` names one to reuse as it is.
 */
export function launch(port: number, options: StartOptions = {}): Launch {
  // A given data directory is reused as it is: a restart after a crash.
  const dataDir = options.dataDir ?? path.resolve('.data-test', `run-${process.pid}-${port}`);
  if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...TEST_SERVER_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, dataDir, output: () => output, exited, stop: () => stopProcess(child, dataDir) };
}

async function startOnPort(port: number, options: StartOptions): Promise<RunningServer> {
  const { child, dataDir, output, exited, stop } = launch(port, options);
  await waitFor(() => output().includes('Press Ctrl-C to stop'), child, output);
  const external = options.env?.DATABASE_URL;
  const runtime = external ? { databaseUrl: external } : (JSON.parse(fs.readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as { databaseUrl: string });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: runtime.databaseUrl,
    dataDir,
    output,
    stop,
    terminate: () => child.kill('SIGTERM'),
    kill: () => killProcess(child),
    exited: () => exited,
  };
}

async function waitFor(ready: () => boolean, child: ChildProcess, output: () => string) {
  // Below the 240 s hook timeout of the files that start their own server, so a slow start fails
  // with the server's output instead of a bare hook timeout.
  const deadline = Date.now() + 200_000;
  while (!ready()) {
    if (child.exitCode !== null) {
      const message = `server exited with ${child.exitCode}:\n${output()}`;
      throw output().includes('is in use') ? new PortTakenError(message) : new Error(message);
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopProcess(child: ChildProcess, dataDir: string) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function killProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The launcher's process group: Node and its helpers, not PostgreSQL (its own group), which
  // the next start finds running and restarts.
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}
