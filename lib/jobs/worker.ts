import { run, runMigrations, type Runner, type TaskList } from 'graphile-worker';
import { getPool } from '../db/client';
import { purgeIdempotencyKeys } from './tasks/purge-idempotency-keys';
import { sendEmailTask } from './tasks/send-email';
import { reconcilePaymentTask, reconcileUnknownPaymentsTask } from './tasks/reconcile-payment';

export const TASKS: TaskList = {
  'purge-idempotency-keys': purgeIdempotencyKeys,
  'send-email': sendEmailTask,
  'reconcile-payment': reconcilePaymentTask,
  'reconcile-unknown-payments': reconcileUnknownPaymentsTask,
};

const CRONTAB = ['0 * * * * purge-idempotency-keys', '*/5 * * * * reconcile-unknown-payments'].join('\n');

/** Creates graphile-worker's schema, so jobs can be added in transactions even before a worker runs. */
export async function migrateJobQueue(): Promise<void> {
  await runMigrations({ pgPool: getPool() });
}

export async function startWorker(options: { concurrency: number }): Promise<Runner> {
  return run({
    pgPool: getPool(),
    concurrency: options.concurrency,
    taskList: TASKS,
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
  });
}
