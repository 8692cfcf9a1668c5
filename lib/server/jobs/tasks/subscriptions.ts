import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { enqueueJob } from '../../../jobs/enqueue';
import { dueSubscriptionIds, processSubscription } from '../../../subscriptions/renewals';
import { abandonedAdvanceIds, finishAbandonedAdvance } from '../../../subscriptions/test-clocks';
import { markUsageThresholdDue } from '../../../subscriptions/usage-thresholds';

const Payload = z.object({ subscriptionId: z.string() });

/** Runs every due action (renewal, trial end, dunning retry, scheduled change) of one subscription. */
export const processSubscriptionTask: Task = async (payload, helpers) => {
  const { subscriptionId } = Payload.parse(payload);
  const actions = await processSubscription(getDb(), subscriptionId);
  if (actions) helpers.logger.info(`subscription ${subscriptionId}: ${actions} action(s) run`);
};

/**
 * Cron (every minute): queues one job per subscription with something due, and one per test
 * clock whose Advance was cut off and left unfinished. The job key makes a subscription's (a
 * clock's) job unique in the queue; the row lock and the period uniqueness make its work
 * exactly-once even if two workers still run it at the same moment.
 */
export const runDueSubscriptionsTask: Task = async () => {
  const db = getDb();
  for (const id of await dueSubscriptionIds(db)) {
    await enqueueJob(db, 'process-subscription', { subscriptionId: id }, { jobKey: `subscription:${id}` });
  }
  for (const id of await abandonedAdvanceIds(db)) {
    await enqueueJob(db, 'finish-test-clock-advance', { testClockId: id }, { jobKey: `test-clock:${id}` });
  }
};

const AdvancePayload = z.object({ testClockId: z.string() });

/** Finishes a test-clock Advance whose request died midway and was not retried (lib/subscriptions/test-clocks.ts). */
export const finishTestClockAdvanceTask: Task = async (payload) => {
  const { testClockId } = AdvancePayload.parse(payload);
  await finishAbandonedAdvance(getDb(), testClockId);
};

/**
 * Queued by recorded usage of a customer whose subscription has a usage threshold (lib/usage):
 * when the period's unbilled usage reached it, the usage is billed now, by the billing engine.
 */
export const checkUsageThresholdTask: Task = async (payload) => {
  const { subscriptionId } = Payload.parse(payload);
  const db = getDb();
  if (await markUsageThresholdDue(db, subscriptionId)) await processSubscription(db, subscriptionId);
};
