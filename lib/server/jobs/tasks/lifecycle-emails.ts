import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { LifecycleEmailJob, writeEventEmail } from '../../../lifecycle-emails/event-emails';
import { sendDueReminders } from '../../../lifecycle-emails/reminders';

/**
 * Writes the lifecycle email a state change queued in its transaction (a cancellation, an end, a
 * declined renewal, a refund: lib/lifecycle-emails/event-emails.ts); the outbox's own job sends it.
 * A second run writes nothing more.
 */
export const sendLifecycleEmailTask: Task = async (payload, helpers) => {
  const job = LifecycleEmailJob.parse(payload);
  const outcome = await writeEventEmail(getDb(), job);
  helpers.logger.debug(`lifecycle email ${job.kind}: ${outcome}`);
};

const ReminderPayload = z.object({ testClockId: z.string().optional() });

/**
 * Cron (hourly), and queued by each test clock Advance for its clock: the trial-ending, yearly
 * renewal and expiring-card emails now due (lib/lifecycle-emails/reminders.ts).
 */
export const sendLifecycleRemindersTask: Task = async (payload, helpers) => {
  const scope = ReminderPayload.parse(payload ?? {});
  const outcomes = await sendDueReminders(getDb(), scope);
  if (outcomes.written > 0) helpers.logger.info(`lifecycle reminders written: ${outcomes.written}`);
};
