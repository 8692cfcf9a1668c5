import type { billingRecords, subscriptionChanges } from '../db/schema';
import { toPaymentResponse, type PaymentRow } from '../payments/payments';
import type { ChargeOutcome } from '../payments/processor/types';
import type { SubscriptionBillingRow, SubscriptionRow } from './billing';

/** How a subscription, its changes and its billing records are answered (API, events, consoles). */

export type ChangeRow = typeof subscriptionChanges.$inferSelect;

export function toSubscriptionResponse(row: SubscriptionRow) {
  return {
    id: row.id,
    status: row.status,
    version: String(row.version),
    customerId: row.customerId,
    priceId: row.priceId,
    paymentMethodId: row.paymentMethodId,
    currentPeriodIndex: row.currentPeriodIndex,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    trialEnd: row.trialEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    pausedAt: row.pausedAt?.toISOString() ?? null,
    creditBalance: row.creditBalance,
    usageThresholdAmount: row.usageThresholdAmount,
    discount: row.discount,
    testClockId: row.testClockId,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toChangeResponse(row: ChangeRow) {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    type: row.type,
    status: row.status,
    fromPriceId: row.fromPriceId,
    toPriceId: row.toPriceId,
    actor: row.actor,
    reason: row.reason,
    effectiveAt: row.effectiveAt.toISOString(),
    version: row.version === null ? null : String(row.version),
    prorationAmount: row.prorationAmount,
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
  };
}

/** A billing record of a subscription with what its link adds (kind, period, attempts, next retry). */
export function toSubscriptionRecordResponse(link: SubscriptionBillingRow, record: typeof billingRecords.$inferSelect) {
  return {
    id: record.id,
    status: record.status,
    amount: record.amount,
    currency: record.currency,
    description: record.description,
    discountAmount: record.discountAmount,
    taxAmount: record.taxAmount,
    couponId: record.couponId,
    paymentId: record.paymentId,
    kind: link.kind,
    periodIndex: link.periodIndex,
    attempts: link.attempts,
    nextAttemptAt: link.nextAttemptAt?.toISOString() ?? null,
    paidAt: record.paidAt?.toISOString() ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

/** What a Command answers: the subscription and the change, or the declined proration's payment. */
export type CommandResult =
  | { declined: false; subscription: ReturnType<typeof toSubscriptionResponse>; change: ReturnType<typeof toChangeResponse> }
  | DeclinedResult;

/** A charge that had to succeed (first period, proration) was declined: only its failed payment remains. */
export interface DeclinedResult {
  declined: true;
  payment: ReturnType<typeof toPaymentResponse>;
  message: string;
  declineCode: string;
}

export function toDeclinedResult(payment: PaymentRow, outcome: Extract<ChargeOutcome, { status: 'failed' }>): DeclinedResult {
  return { declined: true, payment: toPaymentResponse(payment), message: outcome.message, declineCode: outcome.declineCode };
}
