import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

export interface EnqueueOptions {
  /** Run no earlier than this. */
  runAt?: Date;
  /** A job with the same key replaces the pending one instead of adding a second (graphile-worker job_key). */
  jobKey?: string;
  maxAttempts?: number;
  /** Jobs of one queue run one at a time, in order. */
  queueName?: string;
  priority?: number;
}

/** A job to add: task, payload and options, as `enqueueJob` takes them. */
export interface QueuedJob {
  task: string;
  payload: object;
  options?: EnqueueOptions;
}

/**
 * Adds a graphile-worker job in the caller's transaction: the job exists exactly when the state
 * change that caused it commits, so nothing is lost between commit and enqueue.
 */
export async function enqueueJob(tx: Db, task: string, payload: object, options: EnqueueOptions = {}): Promise<void> {
  await tx.execute(sql`select ${addJobCall({ task, payload, options })}`);
}

export function enqueueQueuedJob(tx: Db, job: QueuedJob): Promise<void> {
  return enqueueJob(tx, job.task, job.payload, job.options);
}

/**
 * The `graphile_worker.add_job(…)` call of a job, for a statement that writes a change and its
 * jobs at once (a CTE `select`ing it must be read by the statement, or it does not run).
 */
export function addJobCall({ task, payload, options = {} }: QueuedJob): SQL {
  return sql`graphile_worker.add_job(
      ${task},
      ${JSON.stringify(payload)}::json,
      queue_name => ${options.queueName ?? null},
      run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? null}::int,
      job_key => ${options.jobKey ?? null},
      priority => ${options.priority ?? null}::int
    )`;
}
