import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../db/client';
import { enqueueJob } from '../enqueue';
import { dueSubscriptionIds, processSubscription } from '../../subscriptions/renewals';

const Payload = z.object({ subscriptionId: z.string() });

/** Runs every due action (renewal, trial end, dunning retry, scheduled change) of one subscription. */
export const processSubscriptionTask: Task = async (payload, helpers) => {
  const { subscriptionId } = Payload.parse(payload);
  const actions = await processSubscription(getDb(), subscriptionId);
  if (actions) helpers.logger.info(`subscription ${subscriptionId}: ${actions} action(s) run`);
};

/**
 * Cron (every minute): queues one job per subscription with something due. The job key makes
 * a subscription's job unique in the queue; the row lock and the period uniqueness make its
 * work exactly-once even if two workers still run it at the same moment.
 */
export const runDueSubscriptionsTask: Task = async () => {
  const db = getDb();
  for (const id of await dueSubscriptionIds(db)) {
    await enqueueJob(db, 'process-subscription', { subscriptionId: id }, { jobKey: `subscription:${id}` });
  }
};
