import { log } from '../lib/log';
import { migrateDatabase } from '../lib/db/migrate';
import { migrateJobQueue } from '../lib/server/jobs/worker';

/**
 * The schema of this release: Paybase's migrations (db/migrations), then graphile-worker's own.
 * Both skip what is applied already. Callers hold the migration lock (`withMigrationLock`):
 * `npm run migrate` (scripts/migrate.ts) and every `npm start` (scripts/start.ts).
 */
export async function migrateSchema(): Promise<void> {
  const started = Date.now();
  await migrateDatabase();
  await migrateJobQueue();
  log.debug({ durationMs: Date.now() - started }, 'database schema up to date');
}
