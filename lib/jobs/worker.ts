import { run, runMigrations, type Runner, type TaskList } from 'graphile-worker';
import { getPool } from '../db/client';
import { purgeIdempotencyKeys } from './tasks/purge-idempotency-keys';
import { sendEmailTask } from './tasks/send-email';
import { deliverWebhookTask } from './tasks/deliver-webhook';
import { sweepStuckDeliveries } from '../webhooks/sweep';
import { config } from '../config';
import { log } from '../log';
import { getDb } from '../db/client';
import { reconcilePaymentTask, reconcileUnknownPaymentsTask } from './tasks/reconcile-payment';
import { processSubscriptionTask, runDueSubscriptionsTask } from './tasks/subscriptions';
import { pruneRequestLogsTask } from './tasks/prune-request-logs';

export const TASKS: TaskList = {
  'purge-idempotency-keys': purgeIdempotencyKeys,
  'send-email': sendEmailTask,
  'reconcile-payment': reconcilePaymentTask,
  'reconcile-unknown-payments': reconcileUnknownPaymentsTask,
  'deliver-webhook': deliverWebhookTask,
  'process-subscription': processSubscriptionTask,
  'run-due-subscriptions': runDueSubscriptionsTask,
  'prune-request-logs': pruneRequestLogsTask,
};

const CRONTAB = ['0 * * * * purge-idempotency-keys', '*/5 * * * * reconcile-unknown-payments', '* * * * * run-due-subscriptions', '17 * * * * prune-request-logs'].join('\n');

/** Creates graphile-worker's schema, so jobs can be added in transactions even before a worker runs. */
export async function migrateJobQueue(): Promise<void> {
  await runMigrations({ pgPool: getPool() });
}

export async function startWorker(options: { concurrency: number }): Promise<Runner> {
  const runner = await run({
    pgPool: getPool(),
    concurrency: options.concurrency,
    taskList: TASKS,
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
  });
  // Every worker process looks for deliveries cut off by a crashed worker: once at start (the
  // usual moment after a crash) and then periodically.
  const sweep = () =>
    sweepStuckDeliveries(getDb())
      .then((workerIds) => workerIds.length > 0 && log.warn({ workerIds }, 'released webhook deliveries of crashed workers'))
      .catch((error: unknown) => log.error({ err: error }, 'webhook sweep failed'));
  void sweep();
  const timer = setInterval(sweep, config.webhooks.sweepIntervalMs);
  timer.unref();
  void runner.promise.finally(() => clearInterval(timer));
  return runner;
}
