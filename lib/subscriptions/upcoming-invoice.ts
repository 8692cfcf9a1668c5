import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { findPriceRow } from '../catalog/prices';
import { cycleOf, periodLines, planPeriodCharge, productNameOf } from './billing';
import { periodBoundary } from './periods';
import { findSubscriptionRow } from './queries';
import { planUsageLines } from './usage-billing';

/**
 * What the next renewal's billing record would say if the period ended now
 * (`GET /api/Subscription/{id}/UpcomingInvoice`): the next period's price in advance and the
 * current period's usage so far, priced, less the coupon and credits. It is planned by the same
 * functions the renewal pins its charge with (`planUsageLines`, `planPeriodCharge`,
 * `periodLines`), so the two cannot disagree about the same usage. Nothing is written.
 */
export async function getUpcomingInvoice(db: Db, merchantId: string, subscriptionId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  if (sub.status === 'ended' || sub.status === 'canceled' || sub.cancelAtPeriodEnd) {
    throw new ApiError('INVALID_STATE', `Subscription ${sub.id} will not renew: it has no upcoming invoice.`);
  }
  if (sub.pausedAt) throw new ApiError('INVALID_STATE', `Collection of subscription ${sub.id} is paused: its next renewal bills nothing.`);
  const price = await findPriceRow(db, merchantId, sub.priceId);
  const cycle = cycleOf(sub, price);
  const index = sub.currentPeriodIndex + 1;
  const usage = sub.currentPeriodIndex >= 0 ? await planUsageLines(db, sub, { start: sub.currentPeriodStart, end: sub.currentPeriodEnd }) : [];
  const plan = planPeriodCharge(
    sub,
    { index, start: periodBoundary(cycle, index), end: periodBoundary(cycle, index + 1) },
    price,
    await productNameOf(db, price),
    sub.currentPeriodEnd,
    null,
    usage,
  );
  const billed = periodLines(plan);
  return {
    subscriptionId: sub.id,
    at: sub.currentPeriodEnd.toISOString(),
    currency: plan.currency,
    periodIndex: plan.periodIndex,
    periodStart: plan.periodStart.toISOString(),
    periodEnd: plan.periodEnd.toISOString(),
    lineItems: billed.lineItems,
    subtotal: billed.subtotal,
    discountAmount: billed.discountAmount,
    creditsApplied: billed.creditsApplied,
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
