import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findPriceRow } from '../catalog/prices';
import { cycleOf, periodLines, planPeriodCharge, productNameOf, withCreditFrom, type PeriodCharge, type SubscriptionRow } from './billing';
import { periodBoundary } from './periods';
import { findSubscriptionRow } from './queries';
import { planLateUsageLines, planUsageLines } from './usage-billing';
import { selectTax } from '../tax/tax-selection';
import { renewalDraftOf } from './usage-spans';

/**
 * The next renewal: one drafted at the last boundary and not charged yet (within the grace window:
 * the ended period's usage so far, late usage of earlier periods), else the one at the period end.
 */
async function upcomingPlan(db: Db, sub: SubscriptionRow): Promise<PeriodCharge> {
  const draft = renewalDraftOf(sub);
  if (draft) {
    const { usageFrom, ...drafted } = draft;
    const usage = [...(await planUsageLines(db, sub, { start: usageFrom, end: drafted.periodStart })), ...(await planLateUsageLines(db, sub, usageFrom))];
    const tax = await selectTax(db, sub.merchantId, sub.customerId, [drafted.priceId, ...usage.map(({ line }) => line.priceId)]);
    return withCreditFrom(sub.creditBalance, { ...drafted, usage, tax, at: sub.usageBillingDueAt ?? drafted.at });
  }
  const price = await findPriceRow(db, sub.merchantId, sub.priceId);
  const cycle = cycleOf(sub, price);
  const index = sub.currentPeriodIndex + 1;
  const usage = sub.currentPeriodIndex >= 0 ? await planUsageLines(db, sub, { start: sub.currentPeriodStart, end: sub.currentPeriodEnd }) : [];
  const tax = await selectTax(db, sub.merchantId, sub.customerId, [price.id, ...usage.map(({ line }) => line.priceId)]);
  return planPeriodCharge(
    sub,
    { index, start: periodBoundary(cycle, index), end: periodBoundary(cycle, index + 1) },
    price,
    await productNameOf(db, price),
    sub.currentPeriodEnd,
    null,
    usage,
    tax,
  );
}

/**
 * What the next renewal's billing record would say if the period ended now
 * (`GET /api/Subscription/{id}/UpcomingInvoice`): the next period's price in advance and the
 * current period's usage so far, priced, less the coupon and credits; `at` is the period end (a
 * renewal drafted there is charged after the grace window: then `at` is that moment). It is planned by the same
 * functions the renewal pins its charge with (`planUsageLines`, `planPeriodCharge`,
 * `periodLines`), so the two cannot disagree about the same usage. Nothing is written.
 */
export async function getUpcomingInvoice(db: Db, merchantId: string, subscriptionId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  if (sub.status === 'ended' || sub.status === 'canceled' || sub.cancelAtPeriodEnd) {
    throw new ApiError('INVALID_STATE', `Subscription ${sub.id} will not renew: it has no upcoming invoice.`);
  }
  if (sub.pausedAt) throw new ApiError('INVALID_STATE', `Collection of subscription ${sub.id} is paused: its next renewal bills nothing.`);
  const plan = await upcomingPlan(db, sub);
  const billed = periodLines(plan);
  return {
    subscriptionId: sub.id,
    at: plan.at.toISOString(),
    currency: plan.currency,
    periodIndex: plan.periodIndex,
    periodStart: plan.periodStart.toISOString(),
    periodEnd: plan.periodEnd.toISOString(),
    lineItems: billed.lineItems,
    subtotal: billed.subtotal,
    discountAmount: billed.discountAmount,
    creditsApplied: billed.creditsApplied,
    taxAmount: billed.taxAmount,
    taxes: billed.taxes,
    total: billed.amount,
  };
}

/** The upcoming invoice for the pages that show it, or null when the subscription will not renew (ended, canceling, paused). */
export async function findUpcomingInvoice(db: Db, merchantId: string, subscriptionId: string) {
  try {
    return await getUpcomingInvoice(db, merchantId, subscriptionId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_STATE') return null;
    throw error;
  }
}

export type UpcomingInvoice = Awaited<ReturnType<typeof getUpcomingInvoice>>;
