import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { payments, refunds } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent } from '../events/record-event';
import { ApiError, invalidField } from '../http/errors';
import { formatMoney } from '../money/format';
import { paymentProcessor } from './processor';
import { findPaymentRow } from './payments';
import type { RefundBody } from './schemas';

type RefundRow = typeof refunds.$inferSelect;

export function toRefundResponse(row: RefundRow) {
  return {
    id: row.id,
    paymentId: row.paymentId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    failureMessage: row.failureMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Refunds all or part of a payment: requested → succeeded | failed. The payment row is locked
 * first, so concurrent refunds see each other and the total can never exceed the amount paid.
 */
export async function refundPayment(tx: Db, merchantId: string, paymentId: string, input: z.output<typeof RefundBody>) {
  const payment = await findPaymentRow(tx, merchantId, paymentId, { forUpdate: true });
  if (payment.status !== 'succeeded' && payment.status !== 'partially_refunded') {
    throw new ApiError('INVALID_STATE', `Payment ${payment.id} is ${payment.status}; only a succeeded payment can be refunded.`, {
      extra: { status: payment.status },
    });
  }
  const [pending] = await tx
    .select({ amount: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, 'requested')));
  const refundable = payment.amount - payment.amountRefunded - (pending?.amount ?? 0);
  if (refundable <= 0) throw new ApiError('INVALID_STATE', `Payment ${payment.id} has nothing left to refund.`, { extra: { status: payment.status } });
  const amount = input.amount ?? refundable;
  if (amount > refundable) {
    throw invalidField('amount', `At most ${refundable} (${formatMoney(refundable, payment.currency)}) of this payment is left to refund.`);
  }

  const at = now();
  const [requested] = await tx
    .insert(refunds)
    .values({
      id: newId('refund'),
      merchantId,
      paymentId: payment.id,
      status: 'requested',
      amount,
      currency: payment.currency,
      reason: input.reason ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await recordEvent(tx, { merchantId, type: 'refund.requested', object: toRefundResponse(requested!) });

  const outcome = await paymentProcessor().refund({
    chargeReference: payment.processorReference ?? '',
    amount,
    currency: payment.currency,
    idempotencyKey: requested!.id,
  });
  const [settled] = await tx
    .update(refunds)
    .set({
      status: outcome.status,
      processorReference: outcome.reference,
      failureMessage: outcome.status === 'failed' ? outcome.message : null,
      updatedAt: now(),
    })
    .where(eq(refunds.id, requested!.id))
    .returning();
  if (outcome.status === 'succeeded') {
    const refunded = payment.amountRefunded + amount;
    await tx
      .update(payments)
      .set({ amountRefunded: refunded, status: refunded === payment.amount ? 'refunded' : 'partially_refunded', updatedAt: now() })
      .where(eq(payments.id, payment.id));
  }
  const refund = toRefundResponse(settled!);
  await recordEvent(tx, { merchantId, type: outcome.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed', object: refund });
  return refund;
}

export async function listRefunds(db: Db, merchantId: string, paymentId: string) {
  await findPaymentRow(db, merchantId, paymentId);
  const rows = await db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.createdAt, refunds.id);
  return rows.map(toRefundResponse);
}
