// First: parses the configuration and stops with its message when it is invalid.
import './load-config';
import { config } from '../lib/config';
import { closeDb } from '../lib/db/client';
import { lastMigration, withMigrationLock } from '../lib/db/migrate';
import { log } from '../lib/log';
import { migrateSchema } from './migrate-schema';

/**
 * `npm run migrate`: applies this release's migrations to DATABASE_URL and exits, as a deploy
 * step before the new release's processes start (docs/operations.md, "Deploying"). The same code
 * and lock as `npm start`, which migrates too: running both at once is safe.
 */
async function main() {
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL: the embedded database is migrated by npm start itself.');
  await withMigrationLock(migrateSchema);
  log.info({ lastMigration: lastMigration().tag }, 'the database schema is up to date');
  await closeDb();
}

main().catch(async (error: unknown) => {
  log.fatal({ err: error }, 'migration failed');
  await closeDb().catch(() => undefined);
  process.exit(1);
});
