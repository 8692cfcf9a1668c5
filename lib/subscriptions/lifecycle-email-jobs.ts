import type { Db } from '../db/client';
import { enqueueJob } from '../jobs/enqueue';

// The lifecycle emails a subscription's changes cause, queued in the change's transaction; the
// `send-lifecycle-email` job writes them (lib/lifecycle-emails/event-emails.ts, which reads these payloads).

/** A cancellation at the period end, scheduled by the change that made the subscription `version`. */
export function queueCanceledEmail(tx: Db, sub: { id: string; version: number }) {
  return enqueueJob(tx, 'send-lifecycle-email', { kind: 'subscription_canceled', subscriptionId: sub.id, version: sub.version });
}

/** The subscription ended; `unpaid` when dunning gave up on its open record. */
export function queueEndedEmail(tx: Db, subscriptionId: string, unpaid: boolean) {
  return enqueueJob(tx, 'send-lifecycle-email', { kind: 'subscription_ended', subscriptionId, unpaid });
}

/** An off-session charge of this open record was declined (not for authentication: that email is its own). */
export function queueRenewalFailedEmail(tx: Db, billingRecordId: string) {
  return enqueueJob(tx, 'send-lifecycle-email', { kind: 'renewal_failed', billingRecordId });
}
