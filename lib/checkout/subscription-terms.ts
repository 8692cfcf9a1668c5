import type { PriceRow } from '../catalog/prices';
import { exclusiveTaxOf, taxOfLine, type AppliedTaxRate, type TaxAmount } from '../tax/calculate';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { discountAmount } from '../promotions/discount';
import { periodBoundary, type BillingCycle } from '../subscriptions/periods';
import { discountApplies, discountWindow, type SubscriptionDiscount } from '../subscriptions/discounts';

const DAY_MS = 86_400_000;

/** The coupon fields that decide what each period costs. */
export type TermsCoupon = Pick<SubscriptionDiscount, 'percentOff' | 'amountOff' | 'duration' | 'durationInMonths'>;

/** What a customer is agreeing to when they subscribe, in their words (hosted checkout). */
export interface SubscriptionTerms {
  /** The undiscounted price per period with its interval: "$19.99/month". */
  recurringLabel: string;
  trialDays: number;
  dueTodayAmount: number;
  dueToday: string;
  /** The tax of today's charge, per rate (its exclusive part is in `dueTodayAmount`). */
  dueTodayTaxes: TaxAmount[];
  /** "7 days free, then $19.99/month from 30 Nov". */
  summary: string;
  /** The discount, "$5.00 for 3 months", when a coupon is applied. */
  discountLabel: string | null;
  /** "Start trial" or "Subscribe", in the customer's language. */
  buttonLabel: string;
}

/** How many periods are considered when describing a discount (120 months is the longest repeating coupon). */
const MAX_DESCRIBED_PERIODS = 1_500;

/**
 * The terms of subscribing to `price` at `at` with an optional coupon: the trial, what is
 * charged today, and each change of the amount charged per period (the same window rule as
 * the renewals, lib/subscriptions/discounts.ts), worded and formatted by `text`'s locale.
 * Amounts charged include the exclusive tax of `rates` (the price's rates for the buyer), as the
 * charges will.
 */
export function subscriptionTerms(
  price: Pick<PriceRow, 'amount' | 'currency' | 'interval' | 'intervalCount' | 'trialDays'>,
  coupon: TermsCoupon | null,
  at: Date,
  text: CustomerText = customerText(),
  rates: readonly AppliedTaxRate[] = [],
): SubscriptionTerms {
  const { t } = text;
  const money = (amount: number) => text.money(amount, price.currency);
  const perPeriod = (amount: number) => text.recurring(amount, price.currency, price.interval, price.intervalCount);
  const trialDays = price.trialDays ?? 0;
  const cycle: BillingCycle = { anchor: new Date(at.getTime() + trialDays * DAY_MS), interval: price.interval!, intervalCount: price.intervalCount ?? 1 };
  const discount = coupon && { ...coupon, end: discountWindow(coupon, cycle).end?.toISOString() ?? null };
  const taxed = (amount: number) => amount + exclusiveTaxOf(taxOfLine(amount, rates));
  const beforeTax = (index: number) => {
    const start = periodBoundary(cycle, index);
    return discountApplies(discount, start) ? price.amount - discountAmount(discount, price.amount) : price.amount;
  };
  const amountOf = (index: number) => taxed(beforeTax(index));
  const fullAmount = taxed(price.amount);
  // Phases of equal amounts: the discounted periods, then the full price for good.
  const firstFull = discount ? firstUndiscountedPeriod(amountOf, fullAmount) : 0;
  const phases: { from: number; amount: number; single: boolean }[] = [];
  const firstCharged = trialDays > 0 ? 0 : 1;
  if (firstFull > firstCharged) phases.push({ from: firstCharged, amount: amountOf(firstCharged), single: firstFull - firstCharged === 1 });
  if (firstFull !== Infinity) phases.push({ from: Math.max(firstFull, firstCharged), amount: fullAmount, single: false });
  const dueTodayAmount = trialDays > 0 ? 0 : amountOf(0);
  const worded = phases.map((phase) => {
    const date = text.day(periodBoundary(cycle, phase.from));
    return phase.single
      ? t('checkout.termsPhaseOn', { amount: money(phase.amount), date })
      : t('checkout.termsPhaseFrom', { amount: perPeriod(phase.amount), date });
  });
  const opening = trialDays > 0 ? t('checkout.termsTrial', { days: trialDays }) : t('checkout.termsToday', { amount: money(dueTodayAmount) });
  const summary = [opening, ...worded].reduceRight((rest, first) => t('checkout.termsThen', { first, rest }));
  return {
    recurringLabel: perPeriod(price.amount),
    trialDays,
    dueTodayAmount,
    dueToday: money(dueTodayAmount),
    dueTodayTaxes: trialDays > 0 ? [] : taxOfLine(beforeTax(0), rates),
    summary,
    discountLabel: coupon ? t('checkout.discountFor', { amount: money(discountAmount(coupon, price.amount)), duration: text.discountDuration(coupon) }) : null,
    buttonLabel: trialDays > 0 ? t('checkout.startTrial') : t('checkout.subscribe'),
  };
}

/** The first period charged the full price; Infinity when every period is discounted (forever). */
function firstUndiscountedPeriod(amountOf: (index: number) => number, fullAmount: number): number {
  if (amountOf(MAX_DESCRIBED_PERIODS) !== fullAmount) return Infinity;
  let index = 0;
  while (amountOf(index) !== fullAmount) index++;
  return index;
}
