import type { PriceRow } from '../catalog/prices';
import { formatMoney } from '../money/format';
import { discountAmount } from '../promotions/discount';
import { periodBoundary, type BillingCycle } from '../subscriptions/periods';
import { discountApplies, discountWindow, describeDiscountDuration, type SubscriptionDiscount } from '../subscriptions/discounts';

const DAY_MS = 86_400_000;

/** The coupon fields that decide what each period costs. */
export type TermsCoupon = Pick<SubscriptionDiscount, 'percentOff' | 'amountOff' | 'duration' | 'durationInMonths'>;

/** What a customer is agreeing to when they subscribe, in words (hosted checkout). */
export interface SubscriptionTerms {
  /** "/month", or " every 3 months". */
  intervalSuffix: string;
  /** The undiscounted price per period with its interval: "$19.99/month". */
  recurringLabel: string;
  trialDays: number;
  dueTodayAmount: number;
  dueToday: string;
  /** "7 days free, then $19.99/month from 30 Nov". */
  summary: string;
  /** The discount, "$5.00 for 3 months", when a coupon is applied. */
  discountLabel: string | null;
  buttonLabel: 'Start trial' | 'Subscribe';
}

export function intervalSuffix(interval: string | null, intervalCount: number | null): string {
  const n = intervalCount ?? 1;
  return n === 1 ? `/${interval}` : ` every ${n} ${interval}s`;
}

/** "30 Nov" (UTC), the way the checkout names a charge date. */
export function shortDate(at: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(at);
}

/** How many periods are considered when describing a discount (120 months is the longest repeating coupon). */
const MAX_DESCRIBED_PERIODS = 1_500;

/**
 * The terms of subscribing to `price` at `at` with an optional coupon: the trial, what is
 * charged today, and each change of the amount charged per period (the same window rule as
 * the renewals, lib/subscriptions/discounts.ts).
 */
export function subscriptionTerms(price: Pick<PriceRow, 'amount' | 'currency' | 'interval' | 'intervalCount' | 'trialDays'>, coupon: TermsCoupon | null, at: Date): SubscriptionTerms {
  const money = (amount: number) => formatMoney(amount, price.currency);
  const suffix = intervalSuffix(price.interval, price.intervalCount);
  const trialDays = price.trialDays ?? 0;
  const cycle: BillingCycle = { anchor: new Date(at.getTime() + trialDays * DAY_MS), interval: price.interval!, intervalCount: price.intervalCount ?? 1 };
  const discount = coupon && { ...coupon, end: discountWindow(coupon, cycle).end?.toISOString() ?? null };
  const amountOf = (index: number) => {
    const start = periodBoundary(cycle, index);
    return discountApplies(discount, start) ? price.amount - discountAmount(discount, price.amount) : price.amount;
  };
  // Phases of equal amounts: the discounted periods, then the full price for good.
  const firstFull = discount ? firstUndiscountedPeriod(amountOf, price.amount) : 0;
  const phases: { from: number; amount: number; single: boolean }[] = [];
  const firstCharged = trialDays > 0 ? 0 : 1;
  if (firstFull > firstCharged) phases.push({ from: firstCharged, amount: amountOf(firstCharged), single: firstFull - firstCharged === 1 });
  if (firstFull !== Infinity) phases.push({ from: Math.max(firstFull, firstCharged), amount: price.amount, single: false });
  const dueTodayAmount = trialDays > 0 ? 0 : amountOf(0);
  const then = phases
    .map((phase) => `${money(phase.amount)}${phase.single ? '' : suffix} ${phase.single ? 'on' : 'from'} ${shortDate(periodBoundary(cycle, phase.from))}`)
    .join(', then ');
  const opening = trialDays > 0 ? `${trialDays} day${trialDays === 1 ? '' : 's'} free` : `${money(dueTodayAmount)} today`;
  return {
    intervalSuffix: suffix,
    recurringLabel: `${money(price.amount)}${suffix}`,
    trialDays,
    dueTodayAmount,
    dueToday: money(dueTodayAmount),
    summary: `${opening}, then ${then}`,
    discountLabel: coupon ? `${money(discountAmount(coupon, price.amount))} ${describeDiscountDuration(coupon)}` : null,
    buttonLabel: trialDays > 0 ? 'Start trial' : 'Subscribe',
  };
}

/** The first period charged the full price; Infinity when every period is discounted (forever). */
function firstUndiscountedPeriod(amountOf: (index: number) => number, fullAmount: number): number {
  if (amountOf(MAX_DESCRIBED_PERIODS) !== fullAmount) return Infinity;
  let index = 0;
  while (amountOf(index) !== fullAmount) index++;
  return index;
}
