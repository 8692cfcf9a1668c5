import { Logger, run, runMigrations, type LogFunctionFactory, type Runner, type TaskList } from 'graphile-worker';
import { getDb, getSessionPool } from '../../db/client';
import { config } from '../../config';
import { purgeIdempotencyKeys } from './tasks/purge-idempotency-keys';
import { sendEmailTask } from './tasks/send-email';
import { sendReceiptTask } from './tasks/send-receipt';
import { log } from '../../log';
import { finishRefundTask, finishStalePhasesTask, reconcilePaymentTask, reconcileUnknownPaymentsTask } from './tasks/reconcile-payment';
import { enqueueJob } from '../../jobs/enqueue';
import { checkUsageThresholdTask, finishTestClockAdvanceTask, processSubscriptionTask, runDueSubscriptionsTask } from './tasks/subscriptions';
import { pruneRequestLogsTask } from './tasks/prune-request-logs';
import { purgeExpiredSecrets } from './tasks/purge-expired-secrets';
import { startDispatcher, type Dispatcher } from '../../webhooks/dispatcher';
import { processStripeEventTask, registerStripeWebhookEndpointTask } from './tasks/stripe';
import { sendLifecycleEmailTask, sendLifecycleRemindersTask } from './tasks/lifecycle-emails';

export const TASKS: TaskList = {
  'purge-idempotency-keys': purgeIdempotencyKeys,
  'send-email': sendEmailTask,
  'send-receipt': sendReceiptTask,
  'reconcile-payment': reconcilePaymentTask,
  'reconcile-unknown-payments': reconcileUnknownPaymentsTask,
  'finish-stale-phases': finishStalePhasesTask,
  'finish-refund': finishRefundTask,
  'process-subscription': processSubscriptionTask,
  'check-usage-threshold': checkUsageThresholdTask,
  'run-due-subscriptions': runDueSubscriptionsTask,
  'finish-test-clock-advance': finishTestClockAdvanceTask,
  'prune-request-logs': pruneRequestLogsTask,
  'purge-expired-secrets': purgeExpiredSecrets,
  'process-stripe-event': processStripeEventTask,
  'register-stripe-webhook-endpoint': registerStripeWebhookEndpointTask,
  'send-lifecycle-email': sendLifecycleEmailTask,
  'send-lifecycle-reminders': sendLifecycleRemindersTask,
};

const CRONTAB = [
  '0 * * * * purge-idempotency-keys',
  '*/5 * * * * reconcile-unknown-payments',
  '* * * * * run-due-subscriptions',
  '* * * * * finish-stale-phases',
  '17 * * * * prune-request-logs',
  '37 * * * * purge-expired-secrets',
  '47 * * * * send-lifecycle-reminders',
].join('\n');

/**
 * The pino level of a graphile-worker line. Error level is kept for what an operator must act
 * on: a job's failed attempt that graphile-worker will retry is a warning; its last one an error.
 */
export function graphileLogLevel(level: string, meta: Record<string, unknown> | undefined): 'error' | 'warn' | 'info' | 'debug' {
  if (level === 'warning') return 'warn';
  const job = meta?.job as { attempts?: number; max_attempts?: number } | undefined;
  if (level === 'error' && meta?.failure === true && job && (job.attempts ?? 0) < (job.max_attempts ?? 0)) return 'warn';
  return level as 'error' | 'info' | 'debug';
}

/** graphile-worker's log lines as pino JSON lines, its scope (worker, task, job) as fields. */
const pinoLogFactory: LogFunctionFactory = (scope) => {
  const scoped = log.child({ component: 'graphile-worker', ...scope });
  return (level, message, meta) => {
    scoped[graphileLogLevel(level, meta)](meta ?? {}, message);
  };
};
const workerLogger = new Logger(pinoLogFactory);

/** Creates graphile-worker's schema, so jobs can be added in transactions even before a worker runs. */
export async function migrateJobQueue(): Promise<void> {
  await runMigrations({ pgPool: getSessionPool(), logger: workerLogger, noPreparedStatements: !config.database.preparedStatements });
}

export interface Worker {
  stop(): Promise<void>;
  /** Settles when graphile-worker stops (for scripts/worker.ts). */
  promise: Promise<void>;
}

/**
 * The background work of one process: graphile-worker for the low-volume jobs (email,
 * reconciliation, subscriptions) and the webhook dispatcher, which has its own queue (the
 * deliveries table, docs/webhooks.md).
 */
export async function startWorker(options: { concurrency: number }): Promise<Worker> {
  const runner: Runner = await run({
    pgPool: getSessionPool(),
    noPreparedStatements: !config.database.preparedStatements,
    concurrency: options.concurrency,
    taskList: TASKS,
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger,
  });
  // Payments cut off between their phases by a crash are finished at once, not at the next minute.
  void enqueueJob(getDb(), 'finish-stale-phases', {}, { jobKey: 'finish-stale-phases' }).catch((error: unknown) =>
    log.error({ err: error }, 'could not queue the recovery of interrupted payments'),
  );
  if (config.processor.name === 'stripe' && !config.processor.stripe.webhookSecret) {
    void enqueueJob(getDb(), 'register-stripe-webhook-endpoint', {}, { jobKey: 'register-stripe-webhook-endpoint' }).catch((error: unknown) =>
      log.error({ err: error }, 'could not queue the registration of the Stripe webhook endpoint'),
    );
  }
  let dispatcher: Dispatcher;
  try {
    dispatcher = await startDispatcher();
  } catch (error) {
    await runner.stop();
    throw error;
  }
  return {
    promise: runner.promise,
    async stop() {
      await Promise.all([dispatcher.stop(), runner.stop()]);
    },
  };
}
