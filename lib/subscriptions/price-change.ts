import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { subscriptionBillingRecords, subscriptionChanges, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { recordEvent, withEventTime } from '../events/record-event';
import { ApiError, invalidField } from '../errors';
import { findPriceRow, refuseMetered, type PriceRow } from '../catalog/prices';
import { createBillingRecord, type BillingRecordRow } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { defineMoneyMove, PinnedCard, pinMoneyMove, type KnownOutcome, type Pinned } from '../payments/money-moves';
import { recordChargeOutcome, type PaymentRow } from '../payments/payments';
import { recordEntitlementChanged } from '../usage/entitlement-changes';
import { prorate } from './proration';
import { timeFor } from './time';
import { periodDiscount, renewalQuote } from './discounts';
import { resolveToken, settlePaid, subscriptionContext, UNKNOWN_RECHECK_MS, type SubscriptionRow } from './billing';
import { NO_TAX, type PinnedTax } from '../tax/calculate';
import { selectTax } from '../tax/tax-selection';
import { closeUnwantedCharge, settleSubscriptionCharge } from './dunning';
import { findChangeRow, findSubscriptionRow } from './queries';
import { toChangeResponse, toDeclinedResult, toSubscriptionResponse, type ChangeRow, type CommandResult } from './responses';
import { markChangeApplied, markChangeCanceled, recordChange, refreshNextAction, writeSubscription, type Actor } from './subscription-writer';

/** A price change: one planner for Preview and ChangePrice, and the proration charge of an upgrade. */

/** A subscription needs a Recurring, active price (at create and on a price change). */
export function requireRecurring(price: PriceRow, field: string) {
  if (price.type !== 'Recurring' || !price.interval) throw invalidField(field, `Price ${price.id} is not Recurring: a subscription needs a Recurring price.`);
  if (!price.active) throw new ApiError('INVALID_STATE', `Price ${price.id} is inactive and cannot be subscribed to.`);
}

export interface PriceChangePlan {
  subscriptionId: string;
  fromPriceId: string;
  toPriceId: string;
  currency: string;
  at: string;
  periodStart: string;
  periodEnd: string;
  prorated: boolean;
  unusedCredit: number;
  remainingCharge: number;
  net: number;
  creditBalanceBefore: number;
  /** The tax of the remaining time's charge (inclusive and exclusive), 0 when nothing is charged. */
  taxAmount: number;
  /** The rates the charge is taxed at for the customer, pinned with it. */
  tax: PinnedTax;
  /** What is charged now: `net` plus exclusive tax, less account credit. */
  amountDueNow: number;
  creditBalanceAfter: number;
  nextRenewal: ReturnType<typeof renewalQuote>;
}

/**
 * What changing to `to` at `at` charges or credits. Same currency, interval and intervalCount
 * only (another currency or cadence is a new subscription). While trialing nothing is
 * prorated; otherwise the net of the remaining time is charged now (with its tax at the new
 * price's `tax` rates, less account credit) or, when negative, added to the account credit that
 * the next renewals use first.
 */
export function planPriceChange(sub: SubscriptionRow, from: PriceRow, to: PriceRow, at: Date, tax: PinnedTax = NO_TAX, field = 'priceId'): PriceChangePlan {
  requireRecurring(to, field);
  // Metered prices are items billed in arrears: a price change moves between licensed prices only.
  refuseMetered(to, field);
  if (from.usageType === 'metered') throw invalidField(field, `The subscription's price ${from.id} is metered: it has no licensed price to change.`);
  if (to.id === from.id) throw invalidField(field, `The subscription is already on price ${to.id}.`);
  if (to.currency !== from.currency) {
    throw invalidField(
      field,
      `Price ${to.id} is in ${to.currency} but the subscription bills in ${from.currency}: cancel and start a new subscription to change currency.`,
    );
  }
  if (to.interval !== from.interval || (to.intervalCount ?? 1) !== (from.intervalCount ?? 1)) {
    throw invalidField(
      field,
      `Price ${to.id} renews every ${to.intervalCount ?? 1} ${to.interval} but the subscription every ${from.intervalCount ?? 1} ${from.interval}: changing the billing interval is not supported; cancel and start a new subscription.`,
    );
  }
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has ended.`);
  if (sub.status === 'past_due')
    throw new ApiError('INVALID_STATE', `Subscription ${sub.id} is past_due: its open billing record must be paid before the plan changes.`);
  const prorated = sub.currentPeriodIndex >= 0;
  // A discounted period prorates what was and will be paid: both prices net of the coupon.
  const discounted = (amount: number) => amount - periodDiscount(sub.discount, sub.currentPeriodStart, amount);
  const p = prorated
    ? prorate({
        fromAmount: discounted(from.amount),
        toAmount: discounted(to.amount),
        periodStart: sub.currentPeriodStart,
        periodEnd: sub.currentPeriodEnd,
        at,
      })
    : { unusedCredit: 0, remainingCharge: 0, net: 0 };
  const before = sub.creditBalance;
  let amountDueNow = 0;
  let taxAmount = 0;
  let after = before;
  if (p.net > 0) {
    const taxed = prorationLines(to.id, p.net, 0, tax, '');
    const used = Math.min(before, taxed.amount);
    amountDueNow = taxed.amount - used;
    taxAmount = taxed.taxAmount;
    after = before - used;
  } else {
    after = before - p.net;
  }
  return {
    subscriptionId: sub.id,
    fromPriceId: from.id,
    toPriceId: to.id,
    currency: to.currency,
    at: at.toISOString(),
    periodStart: sub.currentPeriodStart.toISOString(),
    periodEnd: sub.currentPeriodEnd.toISOString(),
    prorated,
    unusedCredit: p.unusedCredit,
    remainingCharge: p.remainingCharge,
    net: p.net,
    creditBalanceBefore: before,
    taxAmount,
    tax,
    amountDueNow,
    creditBalanceAfter: after,
    nextRenewal: renewalQuote(sub, to, { creditBalance: after, tax }),
  };
}

export async function previewPriceChange(db: Db, merchantId: string, subscriptionId: string, priceId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const from = await findPriceRow(db, merchantId, sub.priceId);
  const to = await findPriceRow(db, merchantId, priceId, 'priceId');
  const { tax: _pinned, ...preview } = planPriceChange(
    sub,
    from,
    to,
    await timeFor(db, sub.testClockId),
    await selectTax(db, merchantId, sub.customerId, [to.id]),
  );
  return preview;
}

/** The lines of a proration's charge: the remaining time at the new price, its tax, less the account credit used. */
export function prorationLines(toPriceId: string, net: number, creditUsed: number, tax: PinnedTax, description: string) {
  return billingLines({ kind: 'proration', description, priceId: toPriceId, quantity: 1, unitAmount: net }, { creditsApplied: creditUsed }, [], tax);
}

/** A mid-period price change with a charge, pinned in phase 1 (lib/payments/money-moves.ts). */
const ProrationPlan = z.object({
  subscriptionId: z.string(),
  merchantId: z.string(),
  change: z.custom<PriceChangePlan>((value) => typeof value === 'object' && value !== null),
  /** The subscription's version the change was accepted at. */
  version: z.number().int(),
  actor: z.string(),
  reason: z.string().nullable(),
  scheduledChangeId: z.string().nullable(),
  description: z.string(),
  customerPresent: z.boolean(),
  card: PinnedCard,
});
type ProrationPlan = z.output<typeof ProrationPlan>;

export interface ChangeRequest {
  actor: Actor;
  reason: string | null;
  /** The change row when it was scheduled earlier (the billing engine). */
  scheduled: ChangeRow | null;
  /** Asked for in the customer portal: recovery never charges it. */
  customerPresent?: boolean;
}

/**
 * Applies a price change now. An upgrade with an amount due now is phase 1 of a money move: the
 * plan (computed once, at `plan.at`) is pinned on the pending payment and applied as it is in
 * phase 3. Anything else changes the subscription at once.
 */
export async function changePrice(tx: Db, sub: SubscriptionRow, plan: PriceChangePlan, request: ChangeRequest): Promise<CommandResult | Pinned> {
  if (plan.amountDueNow <= 0) return applyPriceChange(tx, sub, plan, request);
  const source = await resolveToken(tx, sub);
  const description = `Proration: change to ${plan.toPriceId} for the rest of the period ending ${plan.periodEnd.slice(0, 10)}`;
  const pinned: ProrationPlan = {
    subscriptionId: sub.id,
    merchantId: sub.merchantId,
    change: plan,
    version: sub.version,
    actor: request.actor,
    reason: request.reason,
    scheduledChangeId: request.scheduled?.id ?? null,
    description,
    customerPresent: request.customerPresent ?? false,
    card: source.card,
  };
  return pinMoneyMove(tx, prorationMove, pinned, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: source.paymentMethodId,
    amount: plan.amountDueNow,
    currency: plan.currency,
    description,
    token: source.token,
    processorKey: `${sub.id}:v${sub.version}:proration`,
  });
}

/** The subscription moves to the new price, with the account credit the plan computed (as a difference, so credit given meanwhile stays). */
async function applyPriceChange(tx: Db, sub: SubscriptionRow, plan: PriceChangePlan, request: ChangeRequest): Promise<CommandResult> {
  const updated = await writeSubscription(tx, sub, {
    priceId: plan.toPriceId,
    creditBalance: sub.creditBalance + (plan.creditBalanceAfter - plan.creditBalanceBefore),
  });
  await recordEntitlementChanged(tx, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    cause: 'subscription.price_changed',
    subscriptionId: sub.id,
    priceIds: [plan.fromPriceId, plan.toPriceId],
  });
  const proration = plan.prorated ? plan.net : null;
  const change = request.scheduled
    ? await markChangeApplied(tx, request.scheduled, { version: updated.version, prorationAmount: proration })
    : await recordChange(tx, updated, {
        type: 'ChangePrice',
        actor: request.actor,
        reason: request.reason,
        effectiveAt: new Date(plan.at),
        fromPriceId: plan.fromPriceId,
        toPriceId: plan.toPriceId,
        version: updated.version,
        prorationAmount: proration,
      });
  return { declined: false, subscription: toSubscriptionResponse(updated), change: toChangeResponse(change) };
}

/**
 * Phase 3 of a proration: a decline changes nothing but the failed payment. Otherwise the
 * charge is a billing record of its own, and the change applies as planned, even if other
 * commands came in between (they changed other things). If the subscription ended or left the
 * price meanwhile, the change cannot apply: it is recorded as canceled and a charge that went
 * through is refunded in full.
 */
async function applyProration(tx: Db, pending: PaymentRow, plan: ProrationPlan, outcome: KnownOutcome): Promise<CommandResult> {
  const sub = await findSubscriptionRow(tx, plan.merchantId, plan.subscriptionId, { forUpdate: true });
  const at = new Date(plan.change.at);
  const scheduled = plan.scheduledChangeId ? await findChangeRow(tx, plan.scheduledChangeId) : null;
  return withEventTime(sub.testClockId ? at : null, async () => {
    const context = await subscriptionContext(tx, sub, sub.currentPeriodIndex);
    if (outcome.status === 'failed') {
      const payment = await recordChargeOutcome(tx, pending, outcome, recordEvent, context);
      if (scheduled?.status === 'scheduled') {
        await markChangeCanceled(tx, scheduled, `${scheduled.reason ? `${scheduled.reason} — ` : ''}not applied: ${outcome.message}`);
        await refreshNextAction(tx, sub);
      }
      return toDeclinedResult(payment, outcome);
    }
    let payment = pending;
    const record = await createBillingRecord(
      tx,
      {
        merchantId: sub.merchantId,
        customerId: sub.customerId,
        checkoutId: null,
        paymentId: pending.id,
        currency: plan.change.currency,
        description: plan.description,
        billed: prorationLines(
          plan.change.toPriceId,
          plan.change.net,
          plan.change.creditBalanceBefore - plan.change.creditBalanceAfter,
          plan.change.tax ?? NO_TAX,
          plan.description,
        ),
      },
      { context, recordPayment: async () => (payment = await recordChargeOutcome(tx, pending, outcome, recordEvent, context)) },
    );
    const [link] = await tx
      .insert(subscriptionBillingRecords)
      .values({
        id: newId('subscriptionItem'),
        merchantId: sub.merchantId,
        subscriptionId: sub.id,
        billingRecordId: record.id,
        kind: 'proration',
        attempts: 1,
        lastPaymentId: pending.id,
        createdAt: at,
      })
      .returning();
    const request: ChangeRequest = { actor: plan.actor, reason: plan.reason, scheduled: scheduled?.status === 'scheduled' ? scheduled : null };
    if (sub.status === 'ended' || sub.priceId !== plan.change.fromPriceId) {
      return changeNoLongerApplies(tx, sub, { record, payment }, plan, request);
    }
    if (outcome.status === 'succeeded') await settlePaid(tx, sub, link!, plan.change.toPriceId);
    else
      await tx
        .update(subscriptionBillingRecords)
        .set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) })
        .where(eq(subscriptionBillingRecords.id, link!.id));
    return applyPriceChange(tx, sub, plan.change, request);
  });
}

/** The world moved between the phases: the charge is recorded, the change is not applied, and the money goes back. */
async function changeNoLongerApplies(
  tx: Db,
  sub: SubscriptionRow,
  billed: { record: BillingRecordRow; payment: PaymentRow },
  plan: ProrationPlan,
  request: ChangeRequest,
): Promise<CommandResult> {
  const why =
    sub.status === 'ended'
      ? `the subscription ended while its proration was being charged`
      : `the subscription moved to ${sub.priceId} while this change to ${plan.change.toPriceId} was being charged`;
  await closeUnwantedCharge(tx, sub, billed, `Not applied: ${why}; the proration is refunded.`);
  const reason = `${request.reason ? `${request.reason} — ` : ''}not applied: ${why}; the proration is refunded`;
  const change = request.scheduled
    ? await markChangeCanceled(tx, request.scheduled, reason)
    : await recordChange(tx, sub, {
        type: 'ChangePrice',
        status: 'canceled',
        actor: request.actor,
        reason,
        effectiveAt: new Date(plan.change.at),
        fromPriceId: plan.change.fromPriceId,
        toPriceId: plan.change.toPriceId,
        version: null,
      });
  return { declined: false, subscription: toSubscriptionResponse(sub), change: toChangeResponse(change) };
}

export const prorationMove = defineMoneyMove({
  kind: 'subscription-proration',
  plan: ProrationPlan,
  customerPresent: (plan) => plan.customerPresent,
  stillWanted: async (db, plan) => {
    const [sub] = await db
      .select({ status: subscriptions.status, priceId: subscriptions.priceId })
      .from(subscriptions)
      .where(eq(subscriptions.id, plan.subscriptionId));
    return sub !== undefined && sub.status !== 'ended' && sub.priceId === plan.change.fromPriceId;
  },
  apply: (tx, { payment, plan }, outcome) => applyProration(tx, payment, plan, outcome),
  recorded: async (tx, { plan }) => recordedProration(tx, plan),
  settle: async (tx, { payment }, outcome) => {
    await settleSubscriptionCharge(tx, payment.id, outcome);
  },
});

/** The answer of a proration another run recorded: the subscription and the change as they are now. */
async function recordedProration(tx: Db, plan: ProrationPlan): Promise<CommandResult> {
  const sub = await findSubscriptionRow(tx, plan.merchantId, plan.subscriptionId);
  const [change] = await tx
    .select()
    .from(subscriptionChanges)
    .where(
      and(
        eq(subscriptionChanges.subscriptionId, sub.id),
        eq(subscriptionChanges.type, 'ChangePrice'),
        eq(subscriptionChanges.toPriceId, plan.change.toPriceId),
      ),
    )
    .orderBy(desc(subscriptionChanges.createdAt))
    .limit(1);
  return { declined: false, subscription: toSubscriptionResponse(sub), change: toChangeResponse(change!) };
}
