import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import { customers, merchants, payments, type PaymentReview } from '../db/schema';
import { recordAudit } from '../audit/audit-log';
import { ApiError } from '../errors';
import { UnreadableMove } from '../payments/money-moves';
import { listPaymentsNeedingReview, settleReviewedPayment } from '../payments/recovery';

/**
 * The operator's side of `needs_review` (docs/operations.md, "Payments that need review"):
 * payments recovery gave up on, across sellers, and a person's decision after checking the
 * processor, recorded in the audit log with the settlement.
 */

/** How many the page lists at once, oldest first (a backlog longer than this is an incident). */
export const REVIEW_LIST_LIMIT = 100;

export interface PaymentToReview {
  id: string;
  merchantId: string;
  sellerName: string;
  customerId: string;
  customerEmail: string | null;
  customerName: string | null;
  amount: number;
  currency: string;
  description: string;
  createdAt: Date;
  /** The processor's idempotency key: what to look the charge up by in its dashboard. */
  processorKey: string;
  recoveryAttempts: number;
  review: PaymentReview | null;
}

/** Every seller's `needs_review` payments, oldest first, with the seller's and customer's names. */
export async function listPaymentsToReview(db: Db, limit = REVIEW_LIST_LIMIT): Promise<{ total: number; data: PaymentToReview[] }> {
  const [rows, total] = await Promise.all([listPaymentsNeedingReview(db, limit), countPaymentsToReview(db)]);
  if (rows.length === 0) return { total, data: [] };
  const [sellers, buyers] = await Promise.all([
    db
      .select({ id: merchants.id, name: merchants.name })
      .from(merchants)
      .where(inArray(merchants.id, [...new Set(rows.map((row) => row.merchantId))])),
    db
      .select({ id: customers.id, email: customers.email, name: customers.name })
      .from(customers)
      .where(inArray(customers.id, [...new Set(rows.map((row) => row.customerId))])),
  ]);
  const sellerName = new Map(sellers.map((seller) => [seller.id, seller.name]));
  const buyer = new Map(buyers.map((customer) => [customer.id, customer]));
  return {
    total,
    data: rows.map((row) => ({
      id: row.id,
      merchantId: row.merchantId,
      sellerName: sellerName.get(row.merchantId) ?? row.merchantId,
      customerId: row.customerId,
      customerEmail: buyer.get(row.customerId)?.email ?? null,
      customerName: buyer.get(row.customerId)?.name ?? null,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
      createdAt: row.createdAt,
      processorKey: row.processorKey ?? row.id,
      recoveryAttempts: row.recoveryAttempts,
      review: row.review,
    })),
  };
}

/** How many payments wait for a person (on the partial index `payments_needs_review_idx`). */
export async function countPaymentsToReview(db: Db): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(payments).where(eq(payments.status, 'needs_review'));
  return row?.total ?? 0;
}

export const REVIEW_OUTCOMES = ['succeeded', 'failed'] as const;

/** The console's decision on one payment. */
export const SettleReviewedPaymentBody = z.strictObject({
  paymentId: z.string().trim().min(1).max(100),
  outcome: z.enum(REVIEW_OUTCOMES),
});
export type SettleReviewedPaymentBody = z.output<typeof SettleReviewedPaymentBody>;

/**
 * A person checked the processor and settles a `needs_review` payment as charged or not
 * (lib/payments/recovery.ts applies it through the payment's kind: checkout, billing record and
 * subscription follow). The audit entry names the acting admin (the request's actor) and the
 * decision, and commits in the same transaction as the settlement.
 */
export async function settlePaymentAfterReview(db: Database, input: SettleReviewedPaymentBody) {
  try {
    return await settleWithAudit(db, input);
  } catch (error) {
    if (!(error instanceof UnreadableMove)) throw error;
    // Nothing was written: what it paid for is unknown to this version, so no decision can be applied.
    throw new ApiError('INVALID_STATE', `${error.message} It cannot be settled from the console (docs/operations.md, "Payments that need review").`);
  }
}

function settleWithAudit(db: Database, input: SettleReviewedPaymentBody) {
  return settleReviewedPayment(db, input.paymentId, input.outcome, (tx, payment) =>
    recordAudit(tx, {
      merchantId: payment.merchantId,
      action: 'payment.review_settled',
      target: { kind: 'payment', id: payment.id },
      metadata: {
        outcome: input.outcome,
        amount: payment.amount,
        currency: payment.currency,
        from: payment.review?.from ?? null,
      },
    }),
  );
}
