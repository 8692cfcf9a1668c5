import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { attemptLeaseMs } from './policy';
import { DELIVER_WEBHOOK_TASK } from './queue';

/**
 * Recovers deliveries whose worker died mid-attempt (crash, kill -9, lost machine).
 * graphile-worker keeps a dead worker's job and queue locked for 4 hours; no attempt can hold
 * a `deliver-webhook` job longer than the attempt lease, so a job locked longer than that
 * belongs to a dead worker: its workers are force-unlocked and their jobs run again at once.
 * The delivery's own lease (attempt.ts) has expired by then, so the rerun sends it.
 */
export async function sweepStuckDeliveries(db: Db): Promise<string[]> {
  const result = await db.execute<{ locked_by: string }>(sql`
    select distinct locked_by from graphile_worker.jobs
    where task_identifier = ${DELIVER_WEBHOOK_TASK}
      and locked_at < now() - make_interval(secs => ${attemptLeaseMs() / 1000})
      and locked_by is not null`);
  const workerIds = result.rows.map((row) => row.locked_by);
  if (workerIds.length > 0) {
    await db.execute(sql`select graphile_worker.force_unlock_workers(array(select json_array_elements_text(${JSON.stringify(workerIds)}::json)))`);
  }
  return workerIds;
}
