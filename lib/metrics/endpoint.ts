import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import { getDb, getPool } from '../db/client';
import { config } from '../config';
import { log } from '../log';
import { constantTimeEqual } from '../secrets';
import { metrics } from './registry';

/** Gauges read from the database at each scrape: the same on every node (aggregate them with max, not sum). */
interface DatabaseGauges {
  up: Gauge;
  jobsDue: Gauge;
  jobsOldestDueSeconds: Gauge;
  jobsFailed: Gauge;
  webhooksPending: Gauge;
  webhooksDead: Gauge;
  webhooksOldestDueSeconds: Gauge;
  payments: Gauge<'status'>;
  pool: Gauge<'state'>;
}

const shared = globalThis as unknown as { __paybaseDatabaseGauges?: DatabaseGauges };

function databaseGauges(registry: Registry): DatabaseGauges {
  const registers = [registry];
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers });
  shared.__paybaseDatabaseGauges ??= {
    up: gauge('paybase_database_up', '1 when the last scrape could read the database, else 0 (the database gauges below are then left out).'),
    jobsDue: gauge('paybase_jobs_due', 'Background jobs (graphile-worker) due and not yet taken by a worker.'),
    jobsOldestDueSeconds: gauge('paybase_jobs_oldest_due_seconds', 'How long the oldest due job has waited for a worker (0 when none waits).'),
    jobsFailed: gauge('paybase_jobs_failed', 'Background jobs that used up their attempts and will not run again by themselves.'),
    webhooksPending: gauge('paybase_webhook_deliveries_pending', 'Webhook deliveries with an attempt still to make (due now or later).'),
    webhooksDead: gauge('paybase_webhook_deliveries_dead', 'Webhook deliveries that used up their attempts (dead).'),
    webhooksOldestDueSeconds: gauge(
      'paybase_webhook_oldest_due_seconds',
      'How long the oldest due webhook delivery has waited for a dispatcher (0 when none waits).',
    ),
    payments: new Gauge({
      name: 'paybase_payments_unsettled',
      help: 'Payments not settled yet, by status: pending (between phases), unknown (the processor did not answer), requires_action, needs_review (a person must settle it).',
      labelNames: ['status'],
      registers,
    }),
    pool: new Gauge({
      name: 'paybase_database_pool_connections',
      help: "This process's main database pool: connections by state (total, idle, waiting requests) and its size (max).",
      labelNames: ['state'],
      registers,
    }),
  };
  return shared.__paybaseDatabaseGauges;
}

interface QueueRow extends Record<string, unknown> {
  jobs_due: number;
  jobs_oldest_due: number | null;
  jobs_failed: number;
  webhooks_pending: number;
  webhooks_dead: number;
  webhooks_oldest_due: number | null;
  pending: number;
  unknown: number;
  requires_action: number;
  needs_review: number;
}

/** One statement; each count is served by a partial index (payments by status, deliveries due or dead). */
async function readQueues(): Promise<QueueRow> {
  const result = await getDb().execute<QueueRow>(sql`
    with due_jobs as (
      select run_at from graphile_worker.jobs where locked_at is null and attempts < max_attempts and run_at <= now()
    )
    select
      (select count(*)::int from due_jobs) as jobs_due,
      (select extract(epoch from now() - min(run_at))::float8 from due_jobs) as jobs_oldest_due,
      (select count(*)::int from graphile_worker.jobs where attempts >= max_attempts) as jobs_failed,
      (select count(*)::int from webhook_deliveries where due_at is not null) as webhooks_pending,
      (select count(*)::int from webhook_deliveries where status = 'dead') as webhooks_dead,
      (select extract(epoch from now() - min(due_at))::float8 from webhook_deliveries where due_at is not null and due_at <= now()) as webhooks_oldest_due,
      (select count(*)::int from payments where status = 'pending') as pending,
      (select count(*)::int from payments where status = 'unknown') as unknown,
      (select count(*)::int from payments where status = 'requires_action') as requires_action,
      (select count(*)::int from payments where status = 'needs_review') as needs_review`);
  return result.rows[0]!;
}

async function collectDatabaseGauges(registry: Registry): Promise<void> {
  const gauges = databaseGauges(registry);
  const pool = getPool();
  gauges.pool.set({ state: 'total' }, pool.totalCount);
  gauges.pool.set({ state: 'idle' }, pool.idleCount);
  gauges.pool.set({ state: 'waiting' }, pool.waitingCount);
  gauges.pool.set({ state: 'max' }, pool.options.max ?? 0);
  const queueGauges = [
    gauges.jobsDue,
    gauges.jobsOldestDueSeconds,
    gauges.jobsFailed,
    gauges.webhooksPending,
    gauges.webhooksDead,
    gauges.webhooksOldestDueSeconds,
    gauges.payments,
  ];
  try {
    const row = await readQueues();
    gauges.up.set(1);
    gauges.jobsDue.set(row.jobs_due);
    gauges.jobsOldestDueSeconds.set(Math.max(0, row.jobs_oldest_due ?? 0));
    gauges.jobsFailed.set(row.jobs_failed);
    gauges.webhooksPending.set(row.webhooks_pending);
    gauges.webhooksDead.set(row.webhooks_dead);
    gauges.webhooksOldestDueSeconds.set(Math.max(0, row.webhooks_oldest_due ?? 0));
    for (const status of ['pending', 'unknown', 'requires_action', 'needs_review'] as const) gauges.payments.set({ status }, row[status]);
  } catch (error) {
    log.warn({ err: error }, 'metrics could not read the database');
    gauges.up.set(0);
    for (const gauge of queueGauges) gauge.reset();
  }
}

/** Whether `METRICS_TOKEN` is unset, or the request carries it as a bearer token. */
function authorized(request: IncomingMessage): boolean {
  const token = config.metricsToken;
  if (!token) return true;
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') && constantTimeEqual(header.slice('Bearer '.length), token);
}

export const METRICS_PATH = '/metrics';

/** `GET /metrics`: Prometheus text (docs/operations.md, "Metrics"). Never rejects. */
export async function answerMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    await writeMetrics(request, response);
  } catch (error) {
    log.warn({ err: error }, 'could not answer /metrics');
    if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
    response.end();
  }
}

async function writeMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed\n');
    return;
  }
  if (!authorized(request)) {
    response
      .writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' })
      .end('METRICS_TOKEN required\n');
    return;
  }
  const { registry } = metrics();
  await collectDatabaseGauges(registry);
  const body = await registry.metrics();
  response.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/**
 * What `paybase_http_requests_total` calls a request's route: the API route template it
 * matched (`routeOf`, read when the answer is done), or a small fixed set, so that no path (ids,
 * tokens) becomes a label value.
 */
export function observeRequest(request: IncomingMessage, response: ServerResponse, routeOf: (request: IncomingMessage) => string | undefined): void {
  const started = process.hrtime.bigint();
  response.once('finish', () => {
    const pathname = (request.url ?? '/').split('?')[0]!;
    const route =
      pathname === METRICS_PATH
        ? 'metrics'
        : pathname.startsWith('/_next/')
          ? 'static'
          : pathname === '/api' || pathname.startsWith('/api/')
            ? (routeOf(request) ?? 'unmatched')
            : 'page';
    const method = request.method ?? 'GET';
    const { httpRequests, httpDuration } = metrics();
    httpRequests.inc({ method, route, status: String(response.statusCode) });
    httpDuration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
  });
}
