// First: parses the configuration and stops with its message when it is invalid.
import './load-config';
import fs from 'node:fs';
import path from 'node:path';
import { config, setDatabaseUrl } from '../lib/config';
import { closeDb, connectionBudget } from '../lib/db/client';
import { waitForSchema, withMigrationLock } from '../lib/db/migrate';
import { migrateJobQueue, startWorker } from '../lib/server/jobs/worker';
import { log } from '../lib/log';
import { serveWorkerMetrics } from '../lib/metrics/worker-server';

/**
 * An extra job worker against the same database as the server: DATABASE_URL, or the embedded
 * database that a running `npm start` recorded in the data directory.
 */
async function main() {
  if (!config.databaseUrl) {
    const runtime = path.join(config.dataDir, 'runtime.json');
    if (!fs.existsSync(runtime)) throw new Error('Set DATABASE_URL, or start the server first (npm start) to use its embedded database.');
    setDatabaseUrl((JSON.parse(fs.readFileSync(runtime, 'utf8')) as { databaseUrl: string }).databaseUrl);
  }
  // Started before the schema exists (a fresh database, a deploy whose migrations still run), it
  // waits for it rather than failing on missing tables; graphile-worker's schema is then brought
  // up under the migration lock, after whatever migration holds it.
  await waitForSchema();
  await withMigrationLock(migrateJobQueue);
  const worker = await startWorker({ concurrency: config.workerConcurrency });
  log.info({ concurrency: config.workerConcurrency, connections: connectionBudget(true) }, 'worker started');
  const metricsServer = config.workerMetricsPort ? await serveWorkerMetrics(config.workerMetricsPort) : undefined;
  const stop = async () => {
    metricsServer?.close();
    await worker.stop();
    await closeDb();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await worker.promise;
}

main().catch((error) => {
  log.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
