import { eq } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { subscriptionBillingRecords, subscriptions } from '../db/schema';
import { withEventTime } from '../events/record-event';
import { findPriceRow } from '../catalog/prices';
import { defineMoneyMove, type KnownOutcome } from '../payments/money-moves';
import type { PaymentRow } from '../payments/payments';
import { nextRetryAt, productNameOf, resolveToken, settlePaid, UNKNOWN_RECHECK_MS, type ActionStep, type SubscriptionRow } from './billing';
import { askCustomerToAct, settleSubscriptionCharge } from './dunning';
import { endSubscription, markUsageBillingDue, refreshNextAction, runningStatus, takeUsageBilling, writeSubscription } from './subscription-writer';
import { planUsageLines, usageAmountDue, type PinnedUsage } from './usage-billing';
import {
  billsSomething,
  billUsageCharge,
  closeEndedUsageRecord,
  customerStillThere,
  pinUsageCharge,
  settleEndedUsageCharge,
  UsageCharge,
  usageChargeReductions,
} from './usage-charge';
import { NO_TAX } from '../tax/calculate';
import { timeFor } from './time';

/**
 * Usage thresholds (Stripe's billing thresholds; docs/subscriptions.md, "Usage thresholds"): a
 * subscription with `usageThresholdAmount` bills the current period's usage so far on a record of
 * its own as soon as its unbilled amount reaches the threshold, then counts again from there (the
 * period end bills only what was added since). Recording usage never charges: it queues a check
 * (lib/server/jobs/tasks/subscriptions.ts), which marks the subscription's usage billing due now, and the
 * billing engine charges it, one money move per subscription at a time, so concurrent usage
 * crossing the threshold bills it once.
 */

/** The current period's unbilled usage lines when they reach the threshold; null when they do not (or nothing is billed now). */
async function usageOverThreshold(tx: Db, sub: SubscriptionRow): Promise<PinnedUsage[] | null> {
  if (sub.usageThresholdAmount === null || sub.status === 'ended' || sub.currentPeriodIndex < 0 || sub.pausedAt) return null;
  const lines = (await planUsageLines(tx, sub, { start: sub.currentPeriodStart, end: sub.currentPeriodEnd })).filter(({ line }) => line.amount > 0);
  return billsSomething(lines) && usageAmountDue(lines) >= sub.usageThresholdAmount ? lines : null;
}

/**
 * The check queued by recorded usage: when the threshold is reached, the subscription's usage
 * billing is due at its time now (the caller then runs the billing engine, outside this transaction).
 */
export async function markUsageThresholdDue(db: Database, subscriptionId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
    // A renewal drafted in its grace window owns the due time; charging it queues this check again.
    if (!sub || sub.renewalDraft || !(await usageOverThreshold(tx, sub))) return false;
    const at = await timeFor(tx, sub.testClockId);
    if (sub.usageBillingDueAt && sub.usageBillingDueAt <= at) return true;
    await refreshNextAction(tx, await markUsageBillingDue(tx, sub, at));
    return true;
  });
}

/** Phase 1, when the usage billing marked due runs (renewals.ts): checked again under the lock, then pinned. */
export async function billUsageThreshold(tx: Db, sub: SubscriptionRow): Promise<ActionStep> {
  const usage = await usageOverThreshold(tx, sub);
  const reductions = usage ? await usageChargeReductions(tx, sub, usage) : { creditUsed: 0, tax: NO_TAX };
  const taken = await takeUsageBilling(tx, sub, { creditBalance: sub.creditBalance - reductions.creditUsed });
  await refreshNextAction(tx, taken);
  if (!usage) return 'done';
  const price = await findPriceRow(tx, sub.merchantId, sub.priceId);
  const source = await resolveToken(tx, sub);
  const plan: UsageCharge = {
    subscriptionId: sub.id,
    periodIndex: sub.currentPeriodIndex,
    periodStart: sub.currentPeriodStart,
    periodEnd: sub.currentPeriodEnd,
    currency: price.currency,
    description: `${await productNameOf(tx, price)} — usage threshold reached`,
    at: sub.usageBillingDueAt!,
    card: source.card,
    usage,
    ...reductions,
  };
  return pinUsageCharge(tx, thresholdUsageMove, taken, plan, source);
}

/**
 * Phase 3: the record with the outcome. A decline is dunned like a renewal's (retried on the
 * schedule, past_due meanwhile, ended when the last retry fails); if the subscription ended while
 * it was charged, the record is closed like an ended subscription's last usage (the usage is owed).
 */
async function applyThreshold(tx: Db, payment: PaymentRow, plan: UsageCharge, outcome: KnownOutcome): Promise<void> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId)).for('update');
  await withEventTime(sub!.testClockId ? plan.at : null, async () => {
    const billed = await billUsageCharge(tx, sub!, plan, payment, outcome);
    if (sub!.status === 'ended') {
      await closeEndedUsageRecord(tx, sub!, billed.link, billed.payment.status);
      return;
    }
    if (outcome.status === 'succeeded') {
      await settlePaid(tx, sub!, billed.link, sub!.priceId);
    } else {
      const retryAt = outcome.status === 'failed' ? nextRetryAt(plan.at, 1) : new Date(plan.at.getTime() + UNKNOWN_RECHECK_MS);
      if (!retryAt) {
        await endSubscription(tx, sub!, plan.at, 'system', 'End', 'uncollectible');
        return;
      }
      await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: retryAt }).where(eq(subscriptionBillingRecords.id, billed.link.id));
      await askCustomerToAct(tx, billed.record.id, outcome);
    }
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub!.id));
    await writeSubscription(tx, current!, { status: current!.status === 'canceled' ? 'canceled' : await runningStatus(tx, current!, plan.at) });
  });
}

export const thresholdUsageMove = defineMoneyMove<UsageCharge, void>({
  kind: 'subscription-usage-threshold',
  plan: UsageCharge,
  customerPresent: () => false,
  stillWanted: (db, plan) => customerStillThere(db, plan),
  apply: (tx, { payment, plan }, outcome) => applyThreshold(tx, payment, plan, outcome),
  recorded: async () => undefined,
  settle: async (tx, { payment, plan }, outcome) => {
    const [sub] = await tx.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId));
    if (sub?.status === 'ended') await settleEndedUsageCharge(tx, payment, plan, outcome);
    else await settleSubscriptionCharge(tx, payment.id, outcome);
  },
});
