import { and, asc, eq, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { enqueueJob } from '../jobs/enqueue';
import { subscriptionBillingRecords, subscriptionChanges, subscriptions } from '../db/schema';
import type { SubscriptionStatus } from '../db/schema';
import { now } from '../clock';
import { withEventTime } from '../events/record-event';
import { ApiError } from '../errors';
import { findPriceRow } from '../catalog/prices';
import { defineMoneyMove, finishMoneyMove, Pinned, pinMoneyMove, type KnownOutcome } from '../payments/money-moves';
import type { PaymentRow } from '../payments/payments';
import { isMerchantSuspended } from '../merchants/accepts-payments';
import { periodBoundary } from './periods';
import { timeFor } from './time';
import {
  billPinnedPeriod,
  cycleOf,
  nextRetryAt,
  PeriodCharge,
  periodChargeAmount,
  planPeriodCharge,
  productNameOf,
  resolveToken,
  settlePaid,
  UNKNOWN_RECHECK_MS,
  chargeInFlight,
  UnknownCharge,
  withCreditFrom,
  type ActionStep,
  type SubscriptionRow,
} from './billing';
import { selectTax } from '../tax/tax-selection';
import { applyCommand } from './commands';
import { planLateUsageLines, planUsageLines } from './usage-billing';
import { meteredDuring, renewalDraftOf, usageGraceMs, type RenewalDraft } from './usage-spans';
import { billFinalUsage } from './final-usage';
import { billUsageThreshold } from './usage-thresholds';
import { askCustomerToAct, closeUnwantedCharge, lookUpUnknownCharge, retryDue, settleSubscriptionCharge, subscriptionStillRunning } from './dunning';
import type { ChangeRow } from './responses';
import {
  endSubscription,
  hasOpenRecords,
  markChangeCanceled,
  moveSubscriptionPeriod,
  recordChange,
  refreshNextAction,
  takeRenewalDraft,
  writeSubscription,
} from './subscription-writer';
import type { CommandType } from './schemas';

// The billing engine: one due action at a time, each in its own transaction (renewals, trial
// ends, period-end cancellations, scheduled changes; dunning retries are in dunning.ts). An
// action that charges is phase 1 of a money move (lib/payments/money-moves.ts).

/**
 * Phase 1 of the earliest due action of one subscription (scheduled change, dunning retry,
 * renewal/trial end/period-end cancellation), if any is due at the subscription's time. The
 * subscription row is locked for the whole step, so concurrent workers serialize; while a charge
 * of the subscription is in flight nothing else starts (one money move per subscription at a time).
 */
export async function processNextAction(tx: Db, subscriptionId: string): Promise<ActionStep> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
  if (!sub || (sub.status === 'ended' && !sub.usageBillingDueAt)) return 'none';
  if (await chargeInFlight(tx, sub)) return 'none';
  const at = await timeFor(tx, sub.testClockId);
  // A suspended seller's subscriptions only move their periods, uncharged; everything else waits (docs/subscriptions.md).
  const suspended = await isMerchantSuspended(tx, sub.merchantId);
  if (sub.status === 'ended') {
    // What is left of an ended subscription: its last usage, billed after the grace window (final-usage.ts).
    if (suspended) {
      await refreshNextAction(tx, sub, { renewalsOnly: true });
      return 'none';
    }
    if (sub.usageBillingDueAt! > at) return 'none';
    return withEventTime(sub.testClockId ? sub.usageBillingDueAt : null, () => billFinalUsage(tx, sub));
  }
  if (suspended) {
    if (sub.currentPeriodEnd <= at) return renew(tx, sub, { sellerSuspended: true });
    await refreshNextAction(tx, sub, { renewalsOnly: true });
    return 'none';
  }

  const [scheduled] = await tx
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled'), lte(subscriptionChanges.effectiveAt, at)))
    .orderBy(asc(subscriptionChanges.effectiveAt), asc(subscriptionChanges.id))
    .limit(1);
  const [retry] = await tx
    .select()
    .from(subscriptionBillingRecords)
    .where(
      and(
        eq(subscriptionBillingRecords.subscriptionId, sub.id),
        isNotNull(subscriptionBillingRecords.nextAttemptAt),
        lte(subscriptionBillingRecords.nextAttemptAt, at),
      ),
    )
    .orderBy(asc(subscriptionBillingRecords.nextAttemptAt))
    .limit(1);
  const renewalDue = sub.currentPeriodEnd <= at;
  const usageDue = sub.usageBillingDueAt !== null && sub.usageBillingDueAt <= at;
  const candidates: { at: Date; run: () => Promise<ActionStep> }[] = [];
  if (scheduled) candidates.push({ at: scheduled.effectiveAt, run: () => applyScheduled(tx, sub, scheduled) });
  if (retry) candidates.push({ at: retry.nextAttemptAt!, run: () => retryDue(tx, sub, retry) });
  if (usageDue) candidates.push({ at: sub.usageBillingDueAt!, run: () => (sub.renewalDraft ? chargeRenewalDraft(tx, sub) : billUsageThreshold(tx, sub)) });
  if (renewalDue) candidates.push({ at: sub.currentPeriodEnd, run: () => renew(tx, sub) });
  if (candidates.length === 0) {
    await refreshNextAction(tx, sub);
    return 'none';
  }
  // Earliest first; on a tie the listed order holds (changes, retries, usage, then the renewal).
  candidates.sort((a, b) => a.at.getTime() - b.at.getTime());
  // On a test clock, the action's events carry the clock time it happened at.
  return withEventTime(sub.testClockId ? candidates[0]!.at : null, candidates[0]!.run);
}

async function applyScheduled(tx: Db, sub: SubscriptionRow, change: ChangeRow): Promise<ActionStep> {
  const command = { type: change.type as CommandType, priceId: change.toPriceId, reason: change.reason };
  try {
    const result = await tx.transaction(async (sp) => {
      const applied = await applyCommand(sp, sub, command, change.effectiveAt, change.actor, change);
      if (!(applied instanceof Pinned) && applied.declined) throw new ApiError('PAYMENT_DECLINED', applied.message);
      return applied;
    });
    return result instanceof Pinned ? result : 'done';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A scheduled change that no longer applies (or whose proration declined) is canceled, not retried forever.
    await markChangeCanceled(tx, change, `${change.reason ? `${change.reason} — ` : ''}not applied: ${error.detail}`);
    await refreshNextAction(tx, sub);
    return 'done';
  }
}

async function renew(tx: Db, sub: SubscriptionRow, options: { sellerSuspended?: boolean } = {}): Promise<ActionStep> {
  // A drafted renewal still waiting for its grace window (a window longer than a period) is charged first.
  if (sub.renewalDraft && !options.sellerSuspended) return chargeRenewalDraft(tx, sub);
  const boundary = sub.currentPeriodEnd;
  if (sub.status === 'canceled' || sub.cancelAtPeriodEnd) {
    await endSubscription(tx, sub, boundary, 'system', 'End');
    return 'done';
  }
  const price = await findPriceRow(tx, sub.merchantId, sub.priceId);
  const cycle = cycleOf(sub, price);
  const index = sub.currentPeriodIndex + 1;
  const periodSet = { currentPeriodIndex: index, currentPeriodStart: periodBoundary(cycle, index), currentPeriodEnd: periodBoundary(cycle, index + 1) };
  if (sub.pausedAt || options.sellerSuspended) {
    // Collection paused (or the seller suspended): the period moves on without a charge or credits (its usage is not billed).
    const reason = options.sellerSuspended ? 'seller suspended: not charged' : 'collection paused: not charged';
    // A suspended seller's renewal still drafted is dropped with it: nothing of those periods is charged.
    const dropped = options.sellerSuspended ? { renewalDraft: null, usageBillingDueAt: null } : {};
    const updated = await writeSubscription(tx, sub, { ...periodSet, ...dropped });
    if (options.sellerSuspended) await refreshNextAction(tx, updated, { renewalsOnly: true });
    await recordChange(tx, updated, { type: 'Renew', actor: 'system', reason, effectiveAt: boundary, version: updated.version });
    return 'done';
  }
  const period = { index, start: periodSet.currentPeriodStart, end: periodSet.currentPeriodEnd };
  const productName = await productNameOf(tx, price);
  // The ended period's usage is billed with it, in arrears (a trial's usage is free), once the grace window has passed:
  // the period moves now (entitlements meter the new one), its charge is drafted and pinned at the boundary + the window.
  if (sub.currentPeriodIndex >= 0 && (await meteredDuring(tx, sub.id, [{ start: sub.currentPeriodStart, end: boundary }]))) {
    const draft: RenewalDraft = { ...planPeriodCharge(sub, period, price, productName, boundary, null), usageFrom: sub.currentPeriodStart };
    await writeSubscription(tx, sub, { ...periodSet, renewalDraft: draft, usageBillingDueAt: new Date(boundary.getTime() + usageGraceMs()) });
    return 'done';
  }
  // The period moves (and its credit is taken) now, so no other run renews it while it is charged.
  const source = await resolveToken(tx, sub);
  const tax = await selectTax(tx, sub.merchantId, sub.customerId, [price.id]);
  const plan = planPeriodCharge(sub, period, price, productName, boundary, source.card, [], tax);
  const moved = await moveSubscriptionPeriod(tx, sub, { ...periodSet, creditBalance: sub.creditBalance - plan.creditUsed });
  return pinRenewal(tx, moved, plan, source.paymentMethodId, source.token);
}

/**
 * Phase 1 of a drafted renewal, at its boundary + the grace window: the draft's price in advance
 * with the ended period's usage (and late usage of earlier periods), then credits off the whole.
 */
async function chargeRenewalDraft(tx: Db, sub: SubscriptionRow): Promise<ActionStep> {
  const { usageFrom, ...draft } = renewalDraftOf(sub)!;
  const ended = await planUsageLines(tx, sub, { start: usageFrom, end: draft.periodStart });
  const usage = [...ended, ...(await planLateUsageLines(tx, sub, usageFrom))];
  const source = await resolveToken(tx, sub);
  const at = sub.usageBillingDueAt ?? draft.at;
  const tax = await selectTax(tx, sub.merchantId, sub.customerId, [draft.priceId, ...usage.map(({ line }) => line.priceId)]);
  const plan = withCreditFrom(sub.creditBalance, { ...draft, usage, tax, card: source.card, at });
  const taken = await takeRenewalDraft(tx, sub, sub.creditBalance - plan.creditUsed);
  // A threshold reached in the new period while the draft owned the due time is checked now.
  if (sub.usageThresholdAmount !== null) await enqueueJob(tx, 'check-usage-threshold', { subscriptionId: sub.id }, { jobKey: `usage-threshold:${sub.id}` });
  return pinRenewal(tx, taken, plan, source.paymentMethodId, source.token);
}

async function pinRenewal(tx: Db, sub: SubscriptionRow, plan: PeriodCharge, paymentMethodId: string | null, token: string | null): Promise<ActionStep> {
  await refreshNextAction(tx, sub);
  const step = await pinMoneyMove(tx, renewalMove, plan, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId,
    amount: periodChargeAmount(plan),
    currency: plan.currency,
    description: plan.description,
    token,
    processorKey: `${sub.id}:p${plan.periodIndex}:a1`,
  });
  return step instanceof Pinned ? step : 'done';
}

/**
 * Phase 3 of a renewal: the period's billing record with the outcome, then the subscription's
 * status. If the subscription ended while the charge was made (canceled at once), the record is
 * closed and a charge that went through is refunded in full. A decline because the bank wants the
 * customer to authenticate also emails them the record's hosted invoice page (dunning.ts).
 */
async function applyRenewal(tx: Db, payment: PaymentRow, plan: PeriodCharge, outcome: KnownOutcome): Promise<void> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId)).for('update');
  await withEventTime(sub!.testClockId ? plan.at : null, async () => {
    const billed = await billPinnedPeriod(tx, sub!, plan, payment, outcome);
    if (sub!.status === 'ended') {
      await closeUnwantedCharge(tx, sub!, billed, 'The subscription ended while its renewal was being charged.');
      return;
    }
    let status: SubscriptionStatus;
    if (outcome.status === 'succeeded') {
      await settlePaid(tx, sub!, billed.link, plan.priceId);
      status = (await hasOpenRecords(tx, sub!.id)) ? 'past_due' : 'active';
    } else {
      const retryAt = outcome.status === 'failed' ? nextRetryAt(plan.at, 1) : new Date(plan.at.getTime() + UNKNOWN_RECHECK_MS);
      if (!retryAt) {
        // No retries configured: the record is uncollectible at once.
        await endSubscription(tx, sub!, plan.at, 'system', 'End', 'uncollectible');
        return;
      }
      await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: retryAt }).where(eq(subscriptionBillingRecords.id, billed.link.id));
      await askCustomerToAct(tx, billed.record.id, outcome);
      status = 'past_due';
    }
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub!.id));
    // Canceled at its period end meanwhile: it stays canceled.
    const updated = await writeSubscription(tx, current!, { status: current!.status === 'canceled' ? 'canceled' : status });
    await recordChange(tx, updated, { type: 'Renew', actor: 'system', effectiveAt: plan.at, toPriceId: plan.priceId, version: updated.version });
  });
}

export const renewalMove = defineMoneyMove({
  kind: 'subscription-renewal',
  plan: PeriodCharge,
  customerPresent: () => false,
  stillWanted: (db, plan) => subscriptionStillRunning(db, plan),
  apply: (tx, { payment, plan }, outcome) => applyRenewal(tx, payment, plan, outcome),
  recorded: async () => undefined,
  settle: async (tx, { payment }, outcome) => {
    await settleSubscriptionCharge(tx, payment.id, outcome);
  },
});

/** After a seller's reinstatement: held dunning retries and scheduled changes become due again. */
export async function resumeHeldSubscriptionActions(tx: Db, merchantId: string) {
  const rows = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.merchantId, merchantId), or(ne(subscriptions.status, 'ended'), isNotNull(subscriptions.usageBillingDueAt))));
  for (const sub of rows) await refreshNextAction(tx, sub);
}

/**
 * Runs every due action of one subscription, each in its own transactions: an action that
 * charges is a money move whose phases 2 and 3 run here, between the steps.
 */
export async function processSubscription(db: Database, subscriptionId: string, maxActions = 5_000): Promise<number> {
  let done = 0;
  while (done < maxActions) {
    const step = await db.transaction((tx) => processNextAction(tx, subscriptionId));
    if (step === 'none') break;
    if (step instanceof Pinned) await finishMoneyMove(plainPhases(db), step.payment);
    else if (step instanceof UnknownCharge) await lookUpUnknownCharge(db, step.paymentId);
    done++;
  }
  return done;
}

/** Subscriptions on real time with something due now (the renewal job's work list). */
export async function dueSubscriptionIds(db: Db, limit = 500) {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        isNull(subscriptions.testClockId),
        or(ne(subscriptions.status, 'ended'), isNotNull(subscriptions.usageBillingDueAt)),
        lte(subscriptions.nextActionAt, now()),
      ),
    )
    .orderBy(asc(subscriptions.nextActionAt))
    .limit(limit);
  return rows.map((row) => row.id);
}
