import { defineStateMachine } from '../state-machine';
import type { SubscriptionChangeStatus, SubscriptionStatus } from '../db/schema';

/**
 * A subscription's status (docs/subscriptions.md, "States"). Pausing is not a status: it sets
 * `pausedAt` and leaves the status as it is. Writes go through `writeSubscription`
 * (subscription-writer.ts), which checks every status change against this table.
 */
export const subscriptionStateMachine = defineStateMachine<SubscriptionStatus>({
  resource: 'subscription',
  // A trial starts trialing; otherwise period 0 is charged at once and the row starts active.
  initial: ['trialing', 'active'],
  transitions: {
    // Trial end: charged (active) or not (past_due); canceled; ended when the first charge has no retries.
    trialing: ['active', 'past_due', 'canceled', 'ended'],
    // A renewal or proration charge fails or is unknown (past_due); canceled; ended when it cannot be collected.
    active: ['past_due', 'canceled', 'ended'],
    // The open record is paid (active); canceled; the last dunning retry failed (ended).
    past_due: ['active', 'canceled', 'ended'],
    // Reactivate: back to what the trial and the open records say; the period end or an immediate cancel ends it.
    canceled: ['trialing', 'active', 'past_due', 'ended'],
    ended: [],
  },
});

/**
 * A row of `subscription_changes`: applied at once, or scheduled and later applied or canceled
 * (it no longer applies, or the subscription ended first). A change written `canceled` was
 * accepted and charged, but the subscription ended or changed price before the charge came
 * back: its proration is refunded (lib/subscriptions/price-change.ts).
 */
export const subscriptionChangeStateMachine = defineStateMachine<SubscriptionChangeStatus>({
  resource: 'subscription change',
  initial: ['applied', 'scheduled', 'canceled'],
  transitions: {
    scheduled: ['applied', 'canceled'],
    applied: [],
    canceled: [],
  },
});
