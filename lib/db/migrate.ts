import fs from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { config } from '../config';
import { log } from '../log';
import { isDatabaseUnavailable } from './availability';
import { getPool, getSessionPool } from './client';

const MIGRATIONS_FOLDER = 'db/migrations';

/**
 * Serialises migrations (and the first start's seeding) across every process on the database:
 * drizzle's migrator and graphile-worker's take no lock, so two processes migrating an empty
 * database at once both create the same objects and one dies on a duplicate key. Any fixed number.
 */
const MIGRATION_LOCK_KEY = 0x70626d67; // 'pbmg'

/** How often a waiting process says what it waits for. */
const WAIT_LOG_EVERY_MS = 10_000;
const SCHEMA_POLL_MS = 500;

export async function migrateDatabase(): Promise<void> {
  await migrate(drizzle(getSessionPool()), { migrationsFolder: path.resolve(MIGRATIONS_FOLDER) });
}

export class SchemaWaitTimeout extends Error {
  constructor(waitedFor: string) {
    super(`Gave up after DATABASE_SCHEMA_WAIT_MS (${config.database.schemaWaitMs} ms) waiting for ${waitedFor}.`);
    this.name = 'SchemaWaitTimeout';
  }
}

/**
 * Runs `work` holding the migration lock, a session-level advisory lock on a connection of its
 * own (outside the pool, which `work` may need whole: DATABASE_POOL_SIZE can be 1). Another
 * process migrating meanwhile is waited for (at most DATABASE_SCHEMA_WAIT_MS, with a log line
 * every ten seconds); `work` then finds its migrations applied and does nothing. A process that
 * dies holding the lock loses its connection, which releases the lock.
 */
export async function withMigrationLock<T>(work: () => Promise<T>): Promise<T> {
  const connectionString = config.database.directUrl;
  if (!connectionString) throw new Error('DATABASE_URL is not set');
  const client = new pg.Client({ connectionString });
  // Losing it fails the statement waiting on it, if any; the event alone must not crash the process.
  client.on('error', (error) => log.warn({ err: error }, 'the migration lock connection failed'));
  await client.connect();
  try {
    await acquireMigrationLock(client);
    return await work();
  } finally {
    // Ending the session releases its advisory lock.
    await client.end().catch((error: unknown) => log.warn({ err: error }, 'could not close the migration lock connection'));
  }
}

const LOCK_HELD = 'the migration lock, which another process holds (migrating, or stuck: see pg_locks)';

async function acquireMigrationLock(client: pg.Client): Promise<void> {
  const waitMs = config.database.schemaWaitMs;
  const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [MIGRATION_LOCK_KEY]);
  if (rows[0]?.locked) return;
  log.info('another process is migrating the database; waiting for it');
  const started = Date.now();
  const reminder = setInterval(
    () => log.info({ waitedMs: Date.now() - started }, 'still waiting for another process to finish migrating the database'),
    WAIT_LOG_EVERY_MS,
  );
  try {
    // lock_timeout 0 means no limit to PostgreSQL: a zero wait is the try above, already failed.
    if (waitMs === 0) throw new SchemaWaitTimeout(LOCK_HELD);
    await client.query(`set lock_timeout = ${Math.trunc(waitMs)}`);
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') throw new SchemaWaitTimeout(LOCK_HELD);
    throw error;
  } finally {
    clearInterval(reminder);
  }
  log.info({ waitedMs: Date.now() - started }, 'the other process finished migrating; going on');
}

interface JournalEntry {
  when: number;
  tag: string;
}

let lastMigrationOfThisRelease: JournalEntry | undefined;

/** The newest migration this release ships (db/migrations/meta/_journal.json), read once. */
export function lastMigration(): JournalEntry {
  if (!lastMigrationOfThisRelease) {
    const journalFile = path.resolve(/* turbopackIgnore: true */ MIGRATIONS_FOLDER, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: JournalEntry[] };
    const last = journal.entries.at(-1);
    if (!last) throw new Error(`${journalFile} lists no migration`);
    lastMigrationOfThisRelease = last;
  }
  return lastMigrationOfThisRelease;
}

/**
 * Whether the database has this release's last migration (drizzle records each applied one by
 * its journal time). A database migrated further by a newer release has it too. Throws when the
 * database cannot be queried.
 */
export async function migrationsApplied(): Promise<boolean> {
  try {
    const { rows } = await getPool().query<{ applied: boolean }>(
      'select exists (select 1 from drizzle.__drizzle_migrations where created_at = $1) as applied',
      [lastMigration().when],
    );
    return rows[0]?.applied === true;
  } catch (error) {
    // undefined_table, invalid_schema_name: nothing migrated yet.
    const code = (error as { code?: string }).code;
    if (code === '42P01' || code === '3F000') return false;
    throw error;
  }
}

/**
 * Waits until this release's migrations are applied (by `npm run migrate` or a web node's start),
 * polling twice a second and logging every ten seconds, at most DATABASE_SCHEMA_WAIT_MS. A
 * database that cannot be reached yet (starting alongside) is waited for the same way.
 */
export async function waitForSchema(): Promise<void> {
  const started = Date.now();
  let lastLogged = 0;
  for (;;) {
    let missing: string;
    try {
      if (await migrationsApplied()) break;
      missing = `this release's migrations (up to ${lastMigration().tag}): run npm run migrate, or start a web node`;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      missing = 'the database to accept connections';
    }
    const waited = Date.now() - started;
    if (waited >= config.database.schemaWaitMs) throw new SchemaWaitTimeout(missing);
    if (lastLogged === 0 || waited - lastLogged >= WAIT_LOG_EVERY_MS) {
      log.info({ waitedMs: waited }, `waiting for the database schema: ${missing}`);
      lastLogged = Math.max(waited, 1);
    }
    await new Promise((resolve) => setTimeout(resolve, SCHEMA_POLL_MS));
  }
  if (lastLogged > 0) log.info({ waitedMs: Date.now() - started }, 'the database schema is in place');
}
