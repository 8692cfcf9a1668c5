import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { paymentMethods, payments, products, subscriptionBillingRecords, type subscriptions } from '../db/schema';
import { advanceAmount, findPriceRow, type PriceRow } from '../catalog/prices';
import { grantPolicyCredits } from '../usage/credits';
import { periodBoundary, type BillingCycle } from './periods';
import { newId } from '../ids';
import { config } from '../config';
import { recordEvent } from '../events/record-event';
import { PinnedCard, type KnownOutcome, type Pinned } from '../payments/money-moves';
import { recordChargeOutcome, type PaymentRow, type SubscriptionContext } from '../payments/payments';
import { periodDiscount } from './discounts';
import { closeBillingRecord, createBillingRecord } from '../billing/billing-records';
import { billingLines, type BilledTotals } from '../billing/line-items';
import { PinnedUsage } from './usage-billing';
import { NO_TAX, PinnedTax as PinnedTaxSchema, type PinnedTax } from '../tax/calculate';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionBillingRow = typeof subscriptionBillingRecords.$inferSelect;

/**
 * What one step of the billing engine (renewals.ts) did: nothing was due, it is done, a charge
 * was pinned to finish (lib/payments/money-moves.ts), or an unknown charge must be looked up first.
 */
export type ActionStep = 'none' | 'done' | Pinned | UnknownCharge;

/** A due action waits for the processor's word on an earlier charge (asked with no transaction open). */
export class UnknownCharge {
  constructor(readonly paymentId: string) {}
}

/**
 * Dunning: after a failed renewal charge the record is tried again this many days after the
 * first attempt; when the last retry fails the record becomes `uncollectible` and the
 * subscription `ended`. `SUBSCRIPTION_DUNNING_DAYS` (comma-separated) overrides it.
 */
export const DUNNING_DAYS: readonly number[] = config.subscriptions.dunningDays;

/** How long to wait before looking again at a charge whose outcome is unknown. */
export const UNKNOWN_RECHECK_MS = 60 * 60 * 1000;

const DAY_MS = 86_400_000;

export function nextRetryAt(firstAttemptAt: Date, attempts: number): Date | null {
  const days = DUNNING_DAYS[attempts - 1];
  return days === undefined ? null : new Date(firstAttemptAt.getTime() + days * DAY_MS);
}

/** The billing cycle of a subscription on a (Recurring) price: periods count from its anchor. */
export function cycleOf(sub: Pick<SubscriptionRow, 'billingAnchor'>, price: PriceRow): BillingCycle {
  return { anchor: sub.billingAnchor, interval: price.interval!, intervalCount: price.intervalCount ?? 1 };
}

/** The name a period's billing record is described by (the price's id if its product is gone). */
export async function productNameOf(db: Db, price: PriceRow) {
  const [product] = await db.select({ name: products.name }).from(products).where(eq(products.id, price.productId));
  return product?.name ?? price.id;
}

/** The subscription and period a charge's payment and billing-record events name. */
export async function subscriptionContext(db: Db, sub: SubscriptionRow, periodIndex: number): Promise<SubscriptionContext> {
  if (periodIndex === sub.currentPeriodIndex) {
    return { subscriptionId: sub.id, periodIndex, periodStart: sub.currentPeriodStart.toISOString(), periodEnd: sub.currentPeriodEnd.toISOString() };
  }
  const cycle = cycleOf(sub, await findPriceRow(db, sub.merchantId, sub.priceId));
  return {
    subscriptionId: sub.id,
    periodIndex,
    periodStart: periodBoundary(cycle, periodIndex).toISOString(),
    periodEnd: periodBoundary(cycle, periodIndex + 1).toISOString(),
  };
}

/** A pending payment of this subscription: its move is between phases (or its request crashed there). */
export async function chargeInFlight(tx: Db, sub: SubscriptionRow): Promise<boolean> {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.customerId, sub.customerId), eq(payments.status, 'pending'), sql`${payments.intent}->'plan'->>'subscriptionId' = ${sub.id}`))
    .limit(1);
  return row !== undefined;
}

/** A subscription charge's card: the subscription's method if still attached, else its one-off token, else the customer's default. */
export async function resolveToken(tx: Db, sub: Pick<SubscriptionRow, 'paymentMethodId' | 'paymentToken' | 'customerId'>): Promise<ChargeSource> {
  if (sub.paymentMethodId) {
    const [method] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, sub.paymentMethodId), isNull(paymentMethods.detachedAt)));
    if (method) return sourceOf(method);
  }
  if (sub.paymentToken) return { paymentMethodId: null, token: sub.paymentToken, card: null };
  const [fallback] = await tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.customerId, sub.customerId), isNull(paymentMethods.detachedAt), eq(paymentMethods.isDefault, true)));
  return fallback ? sourceOf(fallback) : { paymentMethodId: null, token: null, card: null };
}

/** What a charge is made with; the card's details travel in the plan, so no step looks them up at the processor. */
export interface ChargeSource {
  paymentMethodId: string | null;
  token: string | null;
  card: PinnedCard;
}

function sourceOf(method: typeof paymentMethods.$inferSelect): ChargeSource {
  return {
    paymentMethodId: method.id,
    token: method.processorToken,
    card: { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear },
  };
}

export function periodDescription(productName: string, index: number) {
  return `${productName} — subscription period ${index + 1}`;
}

/** What one period's charge is, pinned in phase 1 (lib/payments/money-moves.ts). */
export const PeriodCharge = z.object({
  subscriptionId: z.string(),
  periodIndex: z.number().int(),
  periodStart: z.coerce.date(),
  periodEnd: z.coerce.date(),
  priceId: z.string(),
  unitAmount: z.number().int(),
  currency: z.string(),
  discount: z.number().int(),
  couponId: z.string().nullable(),
  creditUsed: z.number().int(),
  description: z.string(),
  /** When the period is billed: its start (the renewal boundary, or the create). */
  at: z.coerce.date(),
  card: PinnedCard,
  /** The ended period's usage, billed in arrears (none before metered items existed). */
  usage: z.array(PinnedUsage).default([]),
  /** The tax of its lines for the customer (none before tax existed). */
  tax: PinnedTaxSchema.default(NO_TAX),
});
export type PeriodCharge = z.output<typeof PeriodCharge>;

/**
 * Phase 1 of a period's charge: the price in advance and the ended period's `usage` in arrears
 * (usage-billing.ts). The coupon's discount for the period comes off the price first
 * (lib/subscriptions/discounts.ts), tax is added per line, then account credit comes off what
 * is left of the whole. `sub` is in the period being billed.
 */
export function planPeriodCharge(
  sub: Pick<SubscriptionRow, 'id' | 'discount' | 'creditBalance'>,
  period: { index: number; start: Date; end: Date },
  price: PriceRow,
  productName: string,
  at: Date,
  card: PinnedCard,
  usage: PinnedUsage[] = [],
  tax: PinnedTax = NO_TAX,
): PeriodCharge {
  const amount = advanceAmount(price);
  const discount = periodDiscount(sub.discount, period.start, amount);
  const planned: PeriodCharge = {
    subscriptionId: sub.id,
    periodIndex: period.index,
    periodStart: period.start,
    periodEnd: period.end,
    priceId: price.id,
    unitAmount: amount,
    currency: price.currency,
    discount,
    couponId: discount > 0 ? sub.discount!.couponId : null,
    creditUsed: 0,
    description: periodDescription(productName, period.index),
    at,
    card,
    usage,
    tax,
  };
  return withCreditFrom(sub.creditBalance, planned);
}

/** A period charge with as much of `creditBalance` taken off as it comes to, tax included. */
export function withCreditFrom(creditBalance: number, plan: PeriodCharge): PeriodCharge {
  return { ...plan, creditUsed: Math.min(creditBalance, periodLines({ ...plan, creditUsed: 0 }).amount) };
}

/** What a period charge's payment is asked for. */
export function periodChargeAmount(plan: PeriodCharge) {
  return periodLines(plan).amount;
}

export function periodContext(plan: PeriodCharge): SubscriptionContext {
  return {
    subscriptionId: plan.subscriptionId,
    periodIndex: plan.periodIndex,
    periodStart: plan.periodStart.toISOString(),
    periodEnd: plan.periodEnd.toISOString(),
  };
}

/** A period charge's lines and totals: the price in advance, the ended period's usage, the discount and credits. */
export function periodLines(plan: PeriodCharge) {
  return billingLines(
    { kind: 'plan', description: plan.description, priceId: plan.priceId, quantity: 1, unitAmount: plan.unitAmount },
    { discountAmount: plan.discount, creditsApplied: plan.creditUsed },
    plan.usage,
    plan.tax,
  );
}

/**
 * Phase 3 of a period's charge: its billing record, with the payment's outcome between
 * `billing_record.created` and `.paid`, and the `(subscription, period)` link, whose unique
 * index is the last guard against billing a period twice.
 */
export function billPinnedPeriod(tx: Db, sub: SubscriptionRow, plan: PeriodCharge, pending: PaymentRow, outcome: KnownOutcome) {
  return billSubscriptionCharge(
    tx,
    sub,
    { kind: 'period', ...plan, couponId: plan.couponId, billed: periodLines(plan), context: periodContext(plan) },
    pending,
    outcome,
  );
}

/**
 * A subscription charge's billing record (a period's, or usage billed apart from one) with the
 * payment's outcome recorded inside it, and its link to the subscription.
 */
export async function billSubscriptionCharge(
  tx: Db,
  sub: SubscriptionRow,
  charge: {
    kind: 'period' | 'usage';
    periodIndex: number;
    at: Date;
    currency: string;
    description: string;
    couponId?: string | null;
    billed: BilledTotals;
    context: SubscriptionContext;
  },
  pending: PaymentRow,
  outcome: KnownOutcome,
) {
  const { context } = charge;
  let payment = pending;
  const record = await createBillingRecord(
    tx,
    {
      merchantId: sub.merchantId,
      customerId: sub.customerId,
      checkoutId: null,
      paymentId: pending.id,
      currency: charge.currency,
      description: charge.description,
      ...(charge.couponId !== undefined ? { couponId: charge.couponId } : {}),
      billed: charge.billed,
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
      kind: charge.kind,
      periodIndex: charge.periodIndex,
      attempts: 1,
      lastPaymentId: pending.id,
      createdAt: charge.at,
    })
    .returning();
  return { link: link!, record, payment };
}

/** Marks a subscription record paid and grants the period's credits. */
export async function settlePaid(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow, priceId: string) {
  await closeBillingRecord(tx, sub.merchantId, link.billingRecordId, 'paid');
  await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
  if (link.kind === 'period' && link.periodIndex !== null) await grantPeriodCredits(tx, sub, priceId, link.periodIndex);
}

/**
 * Entitlement credit grants of a paid period (lib/usage/credits.ts): they expire with the
 * period they were paid for.
 */
export async function grantPeriodCredits(tx: Db, sub: SubscriptionRow, priceId: string, periodIndex: number) {
  const cycle = cycleOf(sub, await findPriceRow(tx, sub.merchantId, priceId));
  await grantPolicyCredits(tx, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    priceId,
    origin: { subscriptionId: sub.id, periodIndex, periodEnd: periodBoundary(cycle, periodIndex + 1) },
  });
}
