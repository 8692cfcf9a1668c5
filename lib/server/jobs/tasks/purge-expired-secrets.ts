import type { Task } from 'graphile-worker';
import { getDb } from '../../../db/client';
import { purgeSignInRows } from '../../../auth/retention';
import { purgeEmailOutbox } from '../../../email/send-email';
import { purgeExpiredPortalTokens } from '../../../portal/portal';
import { purgeOldInvitations } from '../../../team/team';
import { dropExpiredPreviousSecrets } from '../../../webhooks/endpoints';
import { purgeIdleApiRequestWindows } from '../../../http/rate-limit';
import { pruneProcessorEvents } from '../../../processors/stripe-events';

/**
 * The hourly retention of every row that carries (or carried) a secret and has no other
 * purge: the email outbox, sign-in tokens and sessions, rate-limit counters (sign-in and API), team invitations,
 * portal links and sessions, rotated-out webhook signing secrets and processed Stripe events (docs/operations.md,
 * "Retention"). Idempotency keys and request logs have their own jobs.
 */
export const purgeExpiredSecrets: Task = async (_payload, helpers) => {
  const db = getDb();
  const removed = {
    ...(await purgeSignInRows(db)),
    outbox: await purgeEmailOutbox(db),
    invitations: await purgeOldInvitations(db),
    portalTokens: await purgeExpiredPortalTokens(db),
    webhookPreviousSecrets: await dropExpiredPreviousSecrets(db),
    apiRequestWindows: await purgeIdleApiRequestWindows(db),
    processorEvents: await pruneProcessorEvents(db),
  };
  helpers.logger.info('purged rows past their retention', { removed });
};
