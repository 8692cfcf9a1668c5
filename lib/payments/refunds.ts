import { and, eq, notLike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { disputes, payments, refunds } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent } from '../events/record-event';
import { ApiError, invalidField } from '../errors';
import { lockAttempt, type Attempt } from '../http/idempotency';
import { formatMoney } from '../money/format';
import { processorOf, type PaymentProcessor } from './processor';
import { findPaymentRow, type PaymentRow } from './payments';
import { enqueueJob, enqueueQueuedJob } from '../jobs/enqueue';
import { toRefundResponse, type RefundRow } from './refund-response';
import { recordAudit } from '../audit/audit-log';
import type { RefundBody } from './schemas';
import { paymentStateMachine } from './payment-states';
import { refundStateMachine } from './refund-states';
import { issueCreditNote } from './credit-notes';

/**
 * Refunds all or part of a payment in phases (docs/payments.md): phase 1 locks the payment,
 * checks what is left to refund (requested refunds count as taken, so concurrent refunds can
 * never exceed the amount paid) and commits the refund as `requested`; phase 2 asks the
 * processor with no transaction open; phase 3 records the outcome. Under an API `attempt`, a
 * takeover (a retry after a crash or a failure past phase 1) finishes or answers the refund the
 * attempt requested instead of requesting another.
 */
export async function refundPayment(phases: Phases, merchantId: string, paymentId: string, input: z.output<typeof RefundBody>, attempt?: Attempt) {
  const requested = await phases.db.transaction(async (tx) => {
    if (attempt) {
      await lockAttempt(tx, merchantId, attempt);
      const [earlier] = attempt.isNew
        ? []
        : await tx
            .select()
            .from(refunds)
            .where(and(eq(refunds.merchantId, merchantId), eq(refunds.attemptKey, attempt.key)));
      if (earlier) return earlier;
    }
    const payment = await findPaymentRow(tx, merchantId, paymentId, { forUpdate: true });
    const subject = `Payment ${payment.id} is ${payment.status}`;
    paymentStateMachine.assertTransition(payment.status, 'refunded', subject, 'only a succeeded payment can be refunded');
    if (!(await processorOf(tx, payment))) {
      throw new ApiError(
        'INVALID_STATE',
        `Payment ${payment.id} was made with ${payment.processor} in ${payment.processorMode} mode${payment.processorConnection === 'platform' ? '' : ' through a connection that is no longer connected'}, which this installation no longer uses: refund it from that account's dashboard.`,
        { extra: { state: payment.status } },
      );
    }
    await refuseDisputed(tx, payment);
    const [pending] = await tx
      .select({ amount: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
      .from(refunds)
      .where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, 'requested')));
    const refundable = payment.amount - payment.amountRefunded - (pending?.amount ?? 0);
    if (refundable <= 0) throw new ApiError('INVALID_STATE', `Payment ${payment.id} has nothing left to refund.`, { extra: { state: payment.status } });
    const amount = input.amount ?? refundable;
    if (amount > refundable) {
      throw invalidField('amount', `At most ${refundable} (${formatMoney(refundable, payment.currency)}) of this payment is left to refund.`);
    }
    const row = await insertRefund(tx, payment, amount, input.reason ?? null, attempt?.key ?? null, input.metadata);
    await recordAudit(tx, {
      merchantId,
      action: 'refund.created',
      target: { kind: 'refund', id: row.id },
      metadata: { paymentId: payment.id, amount, currency: payment.currency, reason: input.reason ?? null },
    });
    return row!;
  });
  return finishRefund(phases, requested.id);
}

/** Phase 1 of a refund: `requested`, with its event; the amount is reserved from then on. */
async function insertRefund(
  tx: Db,
  payment: PaymentRow,
  amount: number,
  reason: string | null,
  attemptKey: string | null = null,
  metadata: Record<string, string> = {},
): Promise<RefundRow> {
  const at = now();
  const [row] = await tx
    .insert(refunds)
    .values({
      id: newId('refund'),
      merchantId: payment.merchantId,
      paymentId: payment.id,
      status: refundStateMachine.start('requested'),
      amount,
      currency: payment.currency,
      reason,
      processor: payment.processor,
      processorMode: payment.processorMode,
      attemptKey,
      metadata,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await recordEvent(tx, { merchantId: payment.merchantId, type: 'refund.requested', object: toRefundResponse(row!) });
  return row!;
}

/**
 * A charge a money move made that what it paid for no longer wants (the subscription ended while
 * it was being charged): refunded in full, decided in the move's phase 3 (lib/payments/money-moves.ts).
 * The refund is requested in `tx` and finished by a job, with no transaction open.
 */
export async function refundUnwantedCharge(tx: Db, payment: PaymentRow, reason: string): Promise<RefundRow> {
  const row = await insertRefund(tx, payment, payment.amount - payment.amountRefunded, reason);
  await enqueueQueuedJob(tx, { task: 'finish-refund', payload: { refundId: row.id }, options: { jobKey: `finish-refund:${row.id}` } });
  return row;
}

/**
 * A charged-back payment is not refunded: the dispute decides what goes back to the customer, and
 * Stripe refuses it (`charge_disputed`). Refused before anything is recorded. An inquiry
 * (`warning_*`) is no chargeback: refunding it is how a seller settles one.
 */
async function refuseDisputed(tx: Db, payment: PaymentRow): Promise<void> {
  const [dispute] = await tx
    .select({ id: disputes.id, status: disputes.status })
    .from(disputes)
    .where(and(eq(disputes.paymentId, payment.id), eq(disputes.merchantId, payment.merchantId), notLike(disputes.status, 'warning_%')))
    .limit(1);
  if (!dispute) return;
  throw new ApiError(
    'INVALID_STATE',
    `Payment ${payment.id} is disputed (${dispute.id}, ${dispute.status}): a charged-back payment cannot be refunded; the dispute decides what goes back to the customer.`,
    { extra: { state: payment.status } },
  );
}

type RefundRequest = Parameters<PaymentProcessor['refund']>[0];

/** A refund by the processor that made the payment; one this installation no longer reaches fails, saying so. */
async function refundWith(processor: PaymentProcessor | undefined, request: RefundRequest) {
  if (processor) return processor.refund(request);
  return {
    status: 'failed' as const,
    reference: `none_${request.idempotencyKey}`,
    message: 'The processor that made this payment is no longer connected: refund it from that account.',
  };
}

/** Phases 2 and 3 of a requested refund; also how reconciliation finishes one after a crash. */
export async function finishRefund(phases: Phases, refundId: string) {
  const [requested] = await phases.db.select().from(refunds).where(eq(refunds.id, refundId));
  const [payment] = await phases.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, requested!.paymentId), eq(payments.merchantId, requested!.merchantId)));
  const processor = await processorOf(phases.db, payment!);
  const outcome = !refundStateMachine.isFinal(requested!.status)
    ? await refundWith(processor, {
        chargeReference: payment!.processorReference ?? '',
        amount: requested!.amount,
        currency: requested!.currency,
        idempotencyKey: requested!.id,
      })
    : null;
  return phases.db.transaction(async (tx) => {
    // Payment first, then refund: the lock order of phase 1, so concurrent refunds cannot deadlock.
    const merchantId = requested!.merchantId;
    const [locked] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, payment!.id), eq(payments.merchantId, merchantId)))
      .for('update');
    const [current] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, refundId), eq(refunds.merchantId, merchantId)))
      .for('update');
    let row = current!;
    if (outcome && refundStateMachine.canTransition(row.status, outcome.status)) {
      [row] = (await tx
        .update(refunds)
        .set({
          status: outcome.status,
          processorReference: outcome.reference,
          failureMessage: outcome.status === 'failed' ? outcome.message : null,
          updatedAt: now(),
        })
        .where(and(eq(refunds.id, refundId), eq(refunds.merchantId, merchantId)))
        .returning()) as [RefundRow];
      if (outcome.status === 'succeeded') {
        const refunded = locked!.amountRefunded + row.amount;
        const status = refunded === locked!.amount ? 'refunded' : 'partially_refunded';
        paymentStateMachine.assertTransition(locked!.status, status, `Payment ${locked!.id}`);
        await tx
          .update(payments)
          .set({ amountRefunded: refunded, status, updatedAt: now() })
          .where(and(eq(payments.id, locked!.id), eq(payments.merchantId, merchantId)));
      }
      await recordEvent(tx, {
        merchantId: row.merchantId,
        type: outcome.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed',
        object: toRefundResponse(row),
      });
      if (outcome.status === 'succeeded') {
        await issueCreditNote(tx, locked!, row);
        // The customer's "refund issued" email names the credit note, whose number is given as this transaction commits.
        await enqueueJob(tx, 'send-lifecycle-email', { kind: 'refund_issued', refundId: row.id });
      }
    }
    const refund = toRefundResponse(row);
    await phases.answer(tx, refund);
    return refund;
  });
}

export async function listRefunds(db: Db, merchantId: string, paymentId: string) {
  await findPaymentRow(db, merchantId, paymentId);
  const rows = await db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.createdAt, refunds.id);
  return rows.map(toRefundResponse);
}
