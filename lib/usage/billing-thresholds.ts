import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enqueueJob } from '../jobs/enqueue';

/**
 * Recorded usage may bring a subscription's unbilled usage to its `usageThresholdAmount`
 * (lib/subscriptions/usage-thresholds.ts). Recording never charges (no network call in its
 * transaction): for each running subscription of these customers that has a threshold, a check
 * is queued in the same transaction; the job key keeps one waiting check per subscription however
 * many records arrive at once. Customers without a threshold cost one indexed read.
 */
export async function queueUsageThresholdChecks(tx: Db, merchantId: string, customerIds: string[]) {
  if (customerIds.length === 0) return;
  const found = await tx.execute<{ id: string }>(sql`
    select id from subscriptions
    where merchant_id = ${merchantId} and customer_id = any(${sql.param(customerIds)}::text[])
      and status <> 'ended' and usage_threshold_amount is not null`);
  for (const { id } of found.rows) {
    await enqueueJob(tx, 'check-usage-threshold', { subscriptionId: id }, { jobKey: `usage-threshold:${id}` });
  }
}
