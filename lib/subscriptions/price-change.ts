import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { subscriptionBillingRecords } from '../db/schema';
import { newId } from '../ids';
import { recordEvent } from '../events/record-event';
import { ApiError, invalidField } from '../http/errors';
import { findPriceRow, type PriceRow } from '../catalog/prices';
import { createBillingRecord } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { recordChargeOutcome } from '../payments/payments';
import { prorate } from './proration';
import { timeFor } from './time';
import { periodDiscount, renewalQuote } from './discounts';
import { ChargeDeclined, recordDeclinedCharge, settlePaid, startChargeAttempt, subscriptionContext, UNKNOWN_RECHECK_MS, type SubscriptionRow } from './billing';
import { findSubscriptionRow } from './queries';
import { toDeclinedResult, type DeclinedResult } from './responses';

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
  amountDueNow: number;
  creditBalanceAfter: number;
  nextRenewal: ReturnType<typeof renewalQuote>;
}

/**
 * What changing to `to` at `at` charges or credits. Same currency, interval and intervalCount
 * only (another currency or cadence is a new subscription). While trialing nothing is
 * prorated; otherwise the net of the remaining time is charged now (less account credit) or,
 * when negative, added to the account credit that the next renewals use first.
 */
export function planPriceChange(sub: SubscriptionRow, from: PriceRow, to: PriceRow, at: Date, field = 'priceId'): PriceChangePlan {
  requireRecurring(to, field);
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
  let after = before;
  if (p.net > 0) {
    const used = Math.min(before, p.net);
    amountDueNow = p.net - used;
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
    amountDueNow,
    creditBalanceAfter: after,
    nextRenewal: renewalQuote(sub, to.amount, after),
  };
}

export async function previewPriceChange(db: Db, merchantId: string, subscriptionId: string, priceId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const from = await findPriceRow(db, merchantId, sub.priceId);
  const to = await findPriceRow(db, merchantId, priceId, 'priceId');
  return planPriceChange(sub, from, to, await timeFor(db, sub.testClockId));
}

/** Charges a mid-period upgrade as its own billing record; a decline changes nothing but the failed payment. */
export async function chargeProration(tx: Db, sub: SubscriptionRow, to: PriceRow, plan: PriceChangePlan, at: Date): Promise<DeclinedResult | null> {
  const description = `Proration: change to ${to.id} for the rest of the period ending ${plan.periodEnd.slice(0, 10)}`;
  const context = await subscriptionContext(tx, sub, sub.currentPeriodIndex);
  try {
    await tx.transaction(async (sp) => {
      const { payment, outcome } = await startChargeAttempt(sp, sub, {
        amount: plan.amountDueNow,
        currency: plan.currency,
        description,
        idempotencyKey: `${sub.id}:v${sub.version}:proration`,
      });
      if (outcome.status === 'failed') {
        throw new ChargeDeclined(
          {
            id: payment.id,
            merchantId: sub.merchantId,
            customerId: sub.customerId,
            paymentMethodId: payment.paymentMethodId,
            amount: payment.amount,
            currency: payment.currency,
            description,
          },
          outcome,
        );
      }
      const record = await createBillingRecord(
        sp,
        {
          merchantId: sub.merchantId,
          customerId: sub.customerId,
          checkoutId: null,
          paymentId: payment.id,
          currency: plan.currency,
          description,
          billed: billingLines({ kind: 'proration', description, priceId: to.id, quantity: 1, unitAmount: plan.amountDueNow }),
        },
        { context, recordPayment: () => recordChargeOutcome(sp, payment, outcome, recordEvent, context) },
      );
      const [link] = await sp
        .insert(subscriptionBillingRecords)
        .values({
          id: newId('subscriptionItem'),
          merchantId: sub.merchantId,
          subscriptionId: sub.id,
          billingRecordId: record.id,
          kind: 'proration',
          attempts: 1,
          lastPaymentId: payment.id,
          createdAt: at,
        })
        .returning();
      if (outcome.status === 'succeeded') await settlePaid(sp, sub, link!, to.id);
      else
        await sp
          .update(subscriptionBillingRecords)
          .set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) })
          .where(eq(subscriptionBillingRecords.id, link!.id));
    });
    return null;
  } catch (error) {
    if (!(error instanceof ChargeDeclined)) throw error;
    const payment = await recordDeclinedCharge(tx, error, context);
    return toDeclinedResult(payment, error.outcome);
  }
}
