import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { coupons, promotionCodes, type SubscriptionDiscount } from '../db/schema';
import { discountAmount } from '../promotions/discount';
import { formatMoney } from '../money/format';
import { periodBoundary, type BillingCycle } from './periods';
import { billingLines } from '../billing/line-items';
import { NO_TAX, type PinnedTax } from '../tax/calculate';

export type { SubscriptionDiscount } from '../db/schema';

/**
 * The coupon duration rule (docs/subscriptions.md, "Coupons on subscriptions"): a coupon
 * discounts every billing period that starts inside its window, measured from the start of the
 * first paid period (after any trial):
 * - `once`: the first paid period only;
 * - `repeating`: periods starting before `durationInMonths` calendar months have passed (3 on a
 *   monthly price is 3 periods; on a yearly price, only the first);
 * - `forever`: every period.
 */
export function discountWindow(
  coupon: { duration: 'once' | 'repeating' | 'forever'; durationInMonths: number | null },
  cycle: BillingCycle,
): { start: Date; end: Date | null } {
  const start = cycle.anchor;
  if (coupon.duration === 'forever') return { start, end: null };
  if (coupon.duration === 'once') return { start, end: periodBoundary(cycle, 1) };
  return { start, end: periodBoundary({ anchor: start, interval: 'month', intervalCount: 1 }, coupon.durationInMonths ?? 1) };
}

/** Reads the redeemed code and its coupon and fixes the window for a subscription billed on `cycle`. */
export async function subscriptionDiscountFor(
  db: Db,
  merchantId: string,
  promotion: { promotionCodeId: string; couponId: string },
  cycle: BillingCycle,
): Promise<SubscriptionDiscount> {
  const [row] = await db
    .select({ code: promotionCodes.code, coupon: coupons })
    .from(promotionCodes)
    .innerJoin(coupons, eq(coupons.id, promotionCodes.couponId))
    .where(and(eq(promotionCodes.id, promotion.promotionCodeId), eq(promotionCodes.merchantId, merchantId)));
  if (!row) throw new Error(`Promotion code ${promotion.promotionCodeId} vanished after it was redeemed.`);
  const { coupon } = row;
  const window = discountWindow(coupon, cycle);
  return {
    couponId: coupon.id,
    promotionCodeId: promotion.promotionCodeId,
    code: row.code,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    currency: coupon.currency,
    duration: coupon.duration as SubscriptionDiscount['duration'],
    durationInMonths: coupon.durationInMonths,
    start: window.start.toISOString(),
    end: window.end?.toISOString() ?? null,
  };
}

/** Whether the period starting at `periodStart` is inside the discount's window. */
export function discountApplies<D extends { end: string | null }>(discount: D | null, periodStart: Date): discount is D {
  return discount !== null && (discount.end === null || periodStart < new Date(discount.end));
}

/** The discount (minor units) on `amount` for the period starting at `periodStart`; 0 outside the window. */
export function periodDiscount(discount: SubscriptionDiscount | null, periodStart: Date, amount: number): number {
  return discountApplies(discount, periodStart) ? discountAmount(discount, amount) : 0;
}

/** "20% off", "$5.00 off", then how long: the words the checkout and the portal show. */
export function describeDiscountDuration(discount: Pick<SubscriptionDiscount, 'duration' | 'durationInMonths'>): string {
  if (discount.duration === 'forever') return 'on every payment';
  if (discount.duration === 'once') return 'on the first payment';
  const months = discount.durationInMonths ?? 1;
  return `for ${months} month${months === 1 ? '' : 's'}`;
}

/**
 * What the next renewal (at the end of the current period) will charge on `amount`: the
 * coupon's discount if that period is in its window, then account credit. The same order as
 * billPinnedPeriod, so the preview, the portal and the charge agree to the minor unit.
 */
export function renewalQuote(
  sub: { currentPeriodEnd: Date; creditBalance: number; discount: SubscriptionDiscount | null },
  price: { id: string; amount: number },
  options: { creditBalance?: number; tax?: PinnedTax } = {},
) {
  const { amount } = price;
  const discountAmount = periodDiscount(sub.discount, sub.currentPeriodEnd, amount);
  const taxed = billingLines(
    { kind: 'plan', description: '', priceId: price.id, quantity: 1, unitAmount: amount },
    { discountAmount },
    [],
    options.tax ?? NO_TAX,
  );
  const creditApplied = Math.min(options.creditBalance ?? sub.creditBalance, taxed.amount);
  return {
    at: sub.currentPeriodEnd.toISOString(),
    amount,
    discountAmount,
    couponId: discountAmount > 0 ? sub.discount!.couponId : null,
    taxAmount: taxed.taxAmount,
    creditApplied,
    amountDue: taxed.amount - creditApplied,
  };
}

/** "LOYAL10: 10% off on every payment", "THREEOFF: $5.00 off for 3 months (full price from 15 Apr 2030)". */
export function describeDiscount(discount: SubscriptionDiscount, currency: string): string {
  const off = discount.percentOff !== null ? `${discount.percentOff}% off` : `${formatMoney(discount.amountOff ?? 0, discount.currency ?? currency)} off`;
  const until =
    discount.end && discount.duration !== 'forever'
      ? ` (full price from ${new Date(discount.end).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })})`
      : '';
  return `${discount.code}: ${off} ${describeDiscountDuration(discount)}${until}`;
}
