import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentMethods, payments, products, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { findPriceRow, type PriceRow } from '../catalog/prices';
import { grantPolicyCredits } from '../usage/credits';
import { periodBoundary, type BillingCycle } from './periods';
import { newId } from '../ids';
import { config } from '../config';
import { recordEvent } from '../events/record-event';
import { chargeInTransaction, type KnownOutcome } from '../payments/charges';
import type { ChargeOutcome } from '../payments/processor/types';
import { createPendingPayment, recordChargeOutcome, type PaymentRow, type SubscriptionContext } from '../payments/payments';
import { periodDiscount } from './discounts';
import { closeBillingRecord, createBillingRecord, setBillingRecordPayment } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionBillingRow = typeof subscriptionBillingRecords.$inferSelect;

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

/** Thrown inside a savepoint when a charge that must succeed is declined; the caller records the payment outside it. */
export class ChargeDeclined extends Error {
  constructor(
    readonly payment: {
      id?: string;
      merchantId: string;
      customerId: string;
      paymentMethodId: string | null;
      amount: number;
      currency: string;
      description: string;
    },
    readonly outcome: Extract<ChargeOutcome, { status: 'failed' }>,
  ) {
    super(outcome.message);
  }
}

/**
 * Writes a declined charge (payment `failed` and `payment.failed`) after its savepoint rolled
 * back; the payment prepared in phase 1 is that payment when it exists.
 */
export async function recordDeclinedCharge(tx: Db, declined: ChargeDeclined, context?: SubscriptionContext): Promise<PaymentRow> {
  const [prepared] = declined.payment.id ? await tx.select().from(payments).where(eq(payments.id, declined.payment.id)) : [];
  const pending = prepared?.status === 'pending' ? prepared : await createPendingPayment(tx, { ...declined.payment, checkoutId: null });
  return recordChargeOutcome(tx, pending, declined.outcome, recordEvent, context);
}

/** The card to charge: the subscription's method if still attached, else the customer's default. */
async function resolveToken(tx: Db, sub: SubscriptionRow): Promise<{ paymentMethodId: string | null; token: string | null }> {
  if (sub.paymentMethodId) {
    const [method] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, sub.paymentMethodId), isNull(paymentMethods.detachedAt)));
    if (method) return { paymentMethodId: method.id, token: method.processorToken };
  }
  if (sub.paymentToken) return { paymentMethodId: null, token: sub.paymentToken };
  const [fallback] = await tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.customerId, sub.customerId), isNull(paymentMethods.detachedAt), eq(paymentMethods.isDefault, true)));
  return fallback ? { paymentMethodId: fallback.id, token: fallback.processorToken } : { paymentMethodId: null, token: null };
}

/**
 * One charge attempt: a pending payment, then the processor (idempotency key derived from the
 * billing record and attempt, so a retried job never charges twice) outside the transaction
 * (lib/payments/charges.ts), then the outcome event.
 */
export async function chargeAttempt(
  tx: Db,
  sub: SubscriptionRow,
  input: { amount: number; currency: string; description: string; idempotencyKey: string; paymentId?: string; context?: SubscriptionContext },
): Promise<{ payment: PaymentRow; outcome: KnownOutcome }> {
  const { payment, outcome } = await startChargeAttempt(tx, sub, input);
  const settled = await recordChargeOutcome(tx, payment, outcome, recordEvent, input.context);
  return { payment: settled, outcome };
}

/** The charge of an attempt with its outcome not yet recorded (the caller records it, after its billing record). */
export async function startChargeAttempt(
  tx: Db,
  sub: SubscriptionRow,
  input: { amount: number; currency: string; description: string; idempotencyKey: string; paymentId?: string },
): Promise<{ payment: PaymentRow; outcome: KnownOutcome }> {
  const method = await resolveToken(tx, sub);
  const { payment, outcome } = await chargeInTransaction(tx, {
    id: input.paymentId,
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: method.paymentMethodId,
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    token: method.token,
    processorKey: input.idempotencyKey,
  });
  return { payment, outcome };
}

export function periodDescription(productName: string, index: number) {
  return `${productName} — subscription period ${index + 1}`;
}

/**
 * Bills period `index` of a subscription exactly once: the `(subscription, period)` row is
 * inserted before the processor is called, and its unique index makes a second insert fail
 * (or wait for the first transaction, then fail), so a period is never charged twice.
 * The coupon's discount for the period comes off first (lib/subscriptions/discounts.ts), then
 * account credit. Returns the link row and the outcome.
 */
export async function billPeriod(tx: Db, sub: SubscriptionRow, price: PriceRow, productName: string, index: number, at: Date) {
  const discount = periodDiscount(sub.discount, sub.currentPeriodStart, price.amount);
  const creditUsed = Math.min(sub.creditBalance, price.amount - discount);
  const amount = price.amount - discount - creditUsed;
  const description = periodDescription(productName, index);
  const linkId = newId('subscriptionItem');
  // The payment comes first because the billing record refers to it; in phase 1 the run ends
  // here, before anything else is written (lib/payments/charges.ts).
  const method = await resolveToken(tx, sub);
  const { payment: pending, outcome } = await chargeInTransaction(tx, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: method.paymentMethodId,
    amount,
    currency: price.currency,
    description,
    token: method.token,
    processorKey: `${sub.id}:p${index}:a1`,
  });
  const paymentId = pending.id;
  const context = await subscriptionContext(tx, sub, index);
  const record = await createBillingRecord(
    tx,
    {
      merchantId: sub.merchantId,
      customerId: sub.customerId,
      checkoutId: null,
      paymentId,
      currency: price.currency,
      description,
      couponId: discount > 0 ? sub.discount!.couponId : null,
      billed: billingLines(
        { kind: 'plan', description, priceId: price.id, quantity: 1, unitAmount: price.amount },
        { discountAmount: discount, creditsApplied: creditUsed },
      ),
    },
    { context },
  );
  // The exactly-once guard: fails on a duplicate before any money moves.
  const [link] = await tx
    .insert(subscriptionBillingRecords)
    .values({
      id: linkId,
      merchantId: sub.merchantId,
      subscriptionId: sub.id,
      billingRecordId: record.id,
      kind: 'period',
      periodIndex: index,
      attempts: 1,
      lastPaymentId: paymentId,
      createdAt: at,
    })
    .returning();
  if (creditUsed > 0) {
    await tx
      .update(subscriptions)
      .set({ creditBalance: sub.creditBalance - creditUsed })
      .where(eq(subscriptions.id, sub.id));
    sub.creditBalance -= creditUsed;
  }
  const payment = await recordChargeOutcome(tx, pending, outcome, recordEvent, context);
  return { link: link!, record, payment, outcome, amount, creditUsed, discount };
}

/** Marks a subscription record paid and grants the period's credits. */
export async function settlePaid(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow, priceId: string) {
  await closeBillingRecord(tx, sub.merchantId, link.billingRecordId, 'paid');
  await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
  if (link.kind === 'period' && link.periodIndex !== null) await grantPeriodCredits(tx, sub, priceId, link.periodIndex);
}

/** A new charge attempt on an open record (dunning retry, or a new payment method). */
export async function retryRecord(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow, amount: number, currency: string, description: string) {
  const attempts = link.attempts + 1;
  const paymentId = newId('payment');
  const { payment, outcome } = await chargeAttempt(tx, sub, {
    amount,
    currency,
    description,
    paymentId,
    idempotencyKey: `${sub.id}:${link.id}:a${attempts}`,
    context: await subscriptionContext(tx, sub, link.periodIndex ?? sub.currentPeriodIndex),
  });
  await setBillingRecordPayment(tx, link.billingRecordId, payment.id);
  const [updated] = await tx
    .update(subscriptionBillingRecords)
    .set({ attempts, lastPaymentId: payment.id })
    .where(eq(subscriptionBillingRecords.id, link.id))
    .returning();
  return { link: updated!, payment, outcome };
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
