import crypto from 'node:crypto';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { config } from '../config';
import type * as schema from './schema';
import { countRoundTrip, countingRoundTrips } from './round-trips';

/**
 * The service's database, built without drizzle's relational query API (`db.query`), which we
 * do not use: with a schema, every transaction would construct a query builder per table.
 */
export type Database = Omit<NodePgDatabase<typeof schema>, 'query'>;
export type Transaction = Omit<Parameters<Parameters<Database['transaction']>[0]>[0], 'query'>;
/** Domain functions accept either; state changes are always given a transaction. */
export type Db = Database | Transaction;

// Survive Next.js module re-evaluation: one pool per process (and one for leases).
type Connection = { pool: pg.Pool; db: Database };
const globalForDb = globalThis as unknown as {
  __paybaseDb?: Connection;
  __paybaseLeaseDb?: Connection;
  __paybaseSessionPool?: pg.Pool;
  __paybaseDbClosed?: boolean;
};

// Integer columns can hold sums beyond 2^31; bigint (int8) results come back as exact strings
// unless parsed. We only store minor units that fit in JS safe integers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error('bigint value exceeds the safe integer range');
  return parsed;
});

/** Named statements kept per connection; beyond it, new statement texts run unnamed. */
const PREPARED_PER_CONNECTION = 500;

/**
 * A connection that sends every statement with parameters as a named prepared statement (the
 * name is a hash of its text): PostgreSQL parses and plans a statement once per connection
 * instead of at every execution, and the driver sends only Bind/Execute after the first time.
 * Texts that vary with their data (a VALUES list per row) would grow the cache without end, so
 * a connection names at most PREPARED_PER_CONNECTION texts and sends later new ones unnamed.
 * `DATABASE_PREPARED_STATEMENTS=false` turns it off (behind a pooler that cannot keep prepared
 * statements, such as PgBouncer in transaction mode before 1.21).
 */
/** How schema field names become column names, for every drizzle instance of the service. */
export const COLUMN_CASING = 'snake_case';

class PreparingClient extends pg.Client {
  private readonly named = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: overrides every overload of pg's `Client.query` at once, which only `any` can express.
  override query(...args: any[]): any {
    const [config, values] = args as [{ text?: unknown; name?: unknown; values?: unknown[] } | undefined, unknown[] | undefined];
    const parameters = values ?? config?.values;
    if (config && typeof config.text === 'string' && config.name === undefined && parameters?.length) {
      const name = statementName(config.text);
      if (this.named.has(name) || this.named.size < PREPARED_PER_CONNECTION) {
        this.named.add(name);
        args[0] = { ...config, name };
      }
    }
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

/**
 * Sends every statement unnamed, those drizzle prepares by name included
 * (`DATABASE_PREPARED_STATEMENTS=false`): behind a transaction-mode pooler, consecutive
 * statements of a client may run on different server connections, where a name prepared on one
 * does not exist.
 */
class UnnamedClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: overrides every overload of pg's `Client.query` at once, which only `any` can express.
  override query(...args: any[]): any {
    const [config] = args as [{ name?: unknown } | undefined];
    if (config && typeof config === 'object' && config.name !== undefined) args[0] = { ...config, name: undefined };
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

/** Names of statement texts seen so far (shared by the connections), so a hot statement is hashed once per process. */
const statementNames = new Map<string, string>();
const NAMES_KEPT = 2 * PREPARED_PER_CONNECTION;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `pb_${crypto.hash('sha1', text, 'base64url')}`;
    if (statementNames.size < NAMES_KEPT) statementNames.set(text, name);
  }
  return name;
}

/**
 * A statement drizzle prepares once per database handle (its placeholders filled per call):
 * `prepare` runs the first time a handle asks, and that handle gets the same statement after.
 */
export function preparedPerDatabase<T>(prepare: (db: Database) => T): (db: Database) => T {
  const prepared = new WeakMap<Database, T>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = prepare(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}

export function getPool(): pg.Pool {
  return connection().pool;
}

/**
 * The pool of work that keeps session state: migrations, graphile-worker (LISTEN, its job
 * fetches). The main pool when `DATABASE_DIRECT_URL` is unset; else a pool to it, sized for one
 * worker (WORKER_CONCURRENCY jobs, its LISTEN connection and one to spare).
 */
export function getSessionPool(): pg.Pool {
  const size = sessionPoolSize();
  if (size === 0) return getPool();
  if (!globalForDb.__paybaseSessionPool) {
    const pool = new pg.Pool({ connectionString: config.database.directUrl, max: size });
    pool.on('error', reportLostConnection);
    globalForDb.__paybaseSessionPool = pool;
  }
  return globalForDb.__paybaseSessionPool;
}

/** The session pool's own connections: none when it is the main pool (DATABASE_DIRECT_URL unset). */
function sessionPoolSize(): number {
  return config.database.directUrl === config.databaseUrl ? 0 : config.workerConcurrency + 2;
}

/**
 * An idle client losing its connection (database restart) must not crash the process: a warning
 * (readiness and the metrics report the outage). Once the process is stopping, the database going
 * away is the expected end, not worth a line.
 */
function reportLostConnection(error: Error): void {
  if (!globalForDb.__paybaseDbClosed) console.error(JSON.stringify({ level: 40, msg: 'database client lost its connection', err: error.message }));
}

/** Connections of the dispatcher's own pool (lib/webhooks/dispatcher.ts). */
export const DISPATCHER_POOL_SIZE = 4;

/**
 * The most connections a process may hold at once (docs/operations.md, "Connection budget"):
 * its main and lease pools; with a worker, the dispatcher's pool, its LISTEN connection and,
 * with DATABASE_DIRECT_URL, graphile-worker's pool. Starting adds the migration lock's one.
 */
export function connectionBudget(withWorker: boolean): number {
  const requests = config.database.poolSize + config.database.leasePoolSize;
  if (!withWorker) return requests;
  return requests + DISPATCHER_POOL_SIZE + 1 + sessionPoolSize();
}

export function getDb(): Database {
  return connection().db;
}

/**
 * A small pool of its own (`DATABASE_LEASE_POOL_SIZE`) for renewing Idempotency-Key leases
 * (lib/http/idempotency.ts): when requests hold every connection of the main pool and more wait
 * for one, the renewals of the waiting requests' leases do not wait with them.
 */
export function getLeaseDb(): Database {
  globalForDb.__paybaseLeaseDb ??= openConnection(config.database.leasePoolSize);
  return globalForDb.__paybaseLeaseDb.db;
}

function connection() {
  globalForDb.__paybaseDb ??= openConnection(config.database.poolSize);
  return globalForDb.__paybaseDb;
}

function openConnection(max: number): Connection {
  const connectionString = config.databaseUrl;
  if (!connectionString) throw new Error('DATABASE_URL is not set');
  const preparing = config.database.preparedStatements;
  const pool = new pg.Pool({ connectionString, max, Client: preparing ? PreparingClient : UnnamedClient });
  pool.on('error', reportLostConnection);
  pool.on('connect', (client) => client.on('error', reportLostConnection));
  // Every statement drizzle sends (BEGIN and COMMIT included) passes its logger, in the caller's context.
  const logger = countingRoundTrips ? { logQuery: countRoundTrip } : undefined;
  return { pool, db: drizzle(pool, { casing: COLUMN_CASING, logger }) };
}

export async function closeDb(): Promise<void> {
  const current = [globalForDb.__paybaseDb?.pool, globalForDb.__paybaseLeaseDb?.pool, globalForDb.__paybaseSessionPool];
  globalForDb.__paybaseDb = undefined;
  globalForDb.__paybaseLeaseDb = undefined;
  globalForDb.__paybaseSessionPool = undefined;
  globalForDb.__paybaseDbClosed = true;
  await Promise.all(current.map((pool) => pool?.end()));
}
