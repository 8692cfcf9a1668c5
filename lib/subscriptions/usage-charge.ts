import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { billingRecords, customers, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { PinnedCard, Pinned, pinMoneyMove, type DefiniteOutcome, type KnownOutcome, type MoneyMoveKind } from '../payments/money-moves';
import { settleUnknownPaymentRow, type PaymentRow, type SubscriptionContext } from '../payments/payments';
import { closeBillingRecord } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { billSubscriptionCharge, settlePaid, type ActionStep, type ChargeSource, type SubscriptionBillingRow, type SubscriptionRow } from './billing';
import { PinnedUsage } from './usage-billing';
import { NO_TAX, PinnedTax as PinnedTaxSchema } from '../tax/calculate';
import { selectTax } from '../tax/tax-selection';

/**
 * Usage billed on its own billing record, not with a renewal: an ended subscription's last usage
 * (final-usage.ts) and the usage so far when a usage threshold is reached (usage-thresholds.ts).
 * Both are money moves whose plan is pinned here in phase 1; their records are linked to the
 * subscription as kind `usage`.
 */

export const UsageCharge = z.object({
  subscriptionId: z.string(),
  /** The (last) period whose usage it bills, and the span its lines cover. */
  periodIndex: z.number().int(),
  periodStart: z.coerce.date(),
  periodEnd: z.coerce.date(),
  currency: z.string(),
  description: z.string(),
  /** When it is billed (on the subscription's clock). */
  at: z.coerce.date(),
  card: PinnedCard,
  usage: z.array(PinnedUsage),
  /** Account credit taken off it. */
  creditUsed: z.number().int(),
  /** The tax of its lines (none before tax existed). */
  tax: PinnedTaxSchema.default(NO_TAX),
});
export type UsageCharge = z.output<typeof UsageCharge>;

/** A usage charge's lines and totals: its usage, less usage credits, plus tax, less account credit. */
export function usageChargeLines(plan: Pick<UsageCharge, 'usage' | 'creditUsed' | 'tax'>) {
  return billingLines(null, { creditsApplied: plan.creditUsed }, plan.usage, plan.tax);
}

/**
 * The tax and account credit of usage billed on its own: the rates of the usage's prices for the
 * customer, then as much of `creditBalance` as the charge comes to, tax included.
 */
export async function usageChargeReductions(tx: Db, sub: SubscriptionRow, usage: PinnedUsage[]): Promise<Pick<UsageCharge, 'creditUsed' | 'tax'>> {
  const tax = await selectTax(
    tx,
    sub.merchantId,
    sub.customerId,
    usage.map(({ line }) => line.priceId),
  );
  return { tax, creditUsed: Math.min(sub.creditBalance, usageChargeLines({ usage, creditUsed: 0, tax }).amount) };
}

/** Whether any of the lines bills something (a record of nothing but zeros is not written). */
export function billsSomething(usage: readonly PinnedUsage[]): boolean {
  return usage.some(({ line }) => line.amount > 0);
}

/** Phase 1's end: the pending payment with the plan pinned on it, charged to the subscription's card. */
export async function pinUsageCharge(
  tx: Db,
  kind: MoneyMoveKind<UsageCharge, void>,
  sub: SubscriptionRow,
  plan: UsageCharge,
  source: ChargeSource,
): Promise<ActionStep> {
  const id = newId('payment');
  const step = await pinMoneyMove(tx, kind, plan, {
    id,
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: source.paymentMethodId,
    amount: usageChargeLines(plan).amount,
    currency: plan.currency,
    description: plan.description,
    token: source.token,
    processorKey: `${sub.id}:usage:${id}`,
  });
  return step instanceof Pinned ? step : 'done';
}

export function usageChargeContext(plan: UsageCharge): SubscriptionContext {
  return {
    subscriptionId: plan.subscriptionId,
    periodIndex: plan.periodIndex,
    periodStart: plan.periodStart.toISOString(),
    periodEnd: plan.periodEnd.toISOString(),
  };
}

/** Phase 3: the record of the usage lines with the payment's outcome, linked to the subscription as kind `usage`. */
export function billUsageCharge(tx: Db, sub: SubscriptionRow, plan: UsageCharge, pending: PaymentRow, outcome: KnownOutcome) {
  return billSubscriptionCharge(tx, sub, { kind: 'usage', ...plan, billed: usageChargeLines(plan), context: usageChargeContext(plan) }, pending, outcome);
}

/**
 * The usage record of an ended subscription once its charge is known: paid, or `uncollectible`
 * when declined (an ended subscription has no dunning: the seller collects it another way). An
 * unknown outcome leaves it open until the processor tells (`settleEndedUsageCharge`).
 */
export async function closeEndedUsageRecord(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow, status: PaymentRow['status']) {
  if (status === 'succeeded') await settlePaid(tx, sub, link, sub.priceId);
  else if (status === 'failed') await closeBillingRecord(tx, sub.merchantId, link.billingRecordId, 'uncollectible');
}

/** An ended subscription's usage charge whose outcome was unknown (or awaited authentication) is settled: its record follows. */
export async function settleEndedUsageCharge(tx: Db, payment: PaymentRow, plan: UsageCharge, outcome: DefiniteOutcome) {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId)).for('update');
  const settled = await settleUnknownPaymentRow(tx, payment.id, outcome, usageChargeContext(plan));
  if (!settled || !sub) return;
  const [found] = await tx
    .select({ link: subscriptionBillingRecords, status: billingRecords.status })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(subscriptionBillingRecords.lastPaymentId, payment.id)));
  if (found?.status === 'open') await closeEndedUsageRecord(tx, sub, found.link, settled.status);
}

/** A usage charge is made by recovery only for a customer who is still there: an archived customer is never charged again. */
export async function customerStillThere(db: Db, plan: { subscriptionId: string }): Promise<boolean> {
  const [row] = await db
    .select({ status: customers.status })
    .from(subscriptions)
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(eq(subscriptions.id, plan.subscriptionId));
  return row?.status === 'active';
}
