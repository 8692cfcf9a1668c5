import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { payments, refunds, type PaymentReview } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { log } from '../log';
import { enqueueJob } from '../jobs/enqueue';
import { ApiError } from '../http/errors';
import { paymentProcessor } from './processor';
import { finishMoneyMove, lockPayment, PaymentAlreadySettled, pinnedMoveOf, UnreadableMove, type DefiniteOutcome } from './money-moves';
import { settleUnknownPaymentRow, type PaymentRow } from './payments';
import { finishRefund } from './refunds';
import { paymentStateMachine } from './payment-states';

/**
 * Recovery of money moves (docs/payments.md, "Recovery"): a move whose request stopped between
 * phase 1 and phase 3 is finished with its pinned plan (lib/payments/money-moves.ts), and an
 * `unknown` charge is settled once the processor tells. Each try that cannot finish or settle
 * counts; past PAYMENT_RECOVERY_MAX_ATTEMPTS the payment is `needs_review`, logged once at error
 * and listed in the operator console, where a person settles it.
 */

export type ReconcileResult = 'succeeded' | 'failed' | 'still_unknown' | 'not_unknown' | 'needs_review';

/**
 * Asks the processor about a payment whose charge timed out (no transaction open), then settles
 * it through its kind (billing record, checkout, subscription follow). Idempotent.
 */
export async function reconcilePayment(db: Database, paymentId: string): Promise<ReconcileResult> {
  const [unknown] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (unknown?.status !== 'unknown') return 'not_unknown';
  const answer = await paymentProcessor().retrieveCharge(unknown.processorKey ?? unknown.id);
  if (answer.status === 'unknown')
    return (await countFailedTry(db, unknown, 'unknown', 'the processor still cannot tell whether it charged')) ?? 'still_unknown';
  // The processor never saw the charge: nothing was taken.
  const outcome: DefiniteOutcome =
    answer.status === 'not_found'
      ? { status: 'failed', reference: `none_${unknown.id}`, card: null, declineCode: 'processor_error', message: 'The payment could not be processed.' }
      : answer.status === 'failed'
        ? { ...answer, card: null }
        : { ...answer, card: null };
  try {
    return await db.transaction(async (tx) => ((await settleCharge(tx, unknown, outcome, ['unknown'])) ? outcome.status : 'not_unknown'));
  } catch (error) {
    return (await countFailedTry(db, unknown, 'unknown', reasonOf(error))) ?? 'still_unknown';
  }
}

/** unknown (or needs_review) → the outcome, through the payment's kind; false when another run settled it. */
async function settleCharge(tx: Db, payment: PaymentRow, outcome: DefiniteOutcome, from: PaymentRow['status'][]): Promise<boolean> {
  const locked = await lockPayment(tx, payment.id, from);
  if (!locked) return false;
  if (!locked.intent) {
    // A charge with no move behind it (none is written so today): the payment alone settles.
    await settleUnknownPaymentRow(tx, locked.id, outcome);
    return true;
  }
  const { kind, move } = pinnedMoveOf(locked);
  await kind.settle(tx, move, outcome);
  return true;
}

/** Safety net for reconciliation jobs that were lost or exhausted: re-enqueues old unknown payments. */
export async function enqueueStaleUnknownPayments(db: Database, olderThanMs: number): Promise<number> {
  const stale = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.status, 'unknown'), lte(payments.updatedAt, new Date(now().getTime() - olderThanMs))))
    .limit(500);
  for (const { id } of stale) await enqueueJob(db, 'reconcile-payment', { paymentId: id }, { jobKey: `reconcile:${id}` });
  return stale.length;
}

/**
 * Finishes the payments and refunds whose request stopped between phase 1 and phase 3 (a crash).
 * A move is finished by the recovery policy (money-moves.ts); one that cannot be counts a try.
 */
export async function finishStalePhases(db: Database, olderThanMs: number): Promise<{ payments: number; refunds: number }> {
  const before = new Date(now().getTime() - olderThanMs);
  const pending = await db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), isNotNull(payments.intent), lte(payments.updatedAt, before)))
    .limit(500);
  const requested = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, 'requested'), lte(refunds.updatedAt, before)))
    .limit(500);
  // One at a time per payment, all at once across them: one seller's stuck move never holds up another's.
  const results = await Promise.allSettled([
    ...pending.map((payment) => finishPendingPayment(db, payment)),
    ...requested.map(({ id }) => finishRefund(plainPhases(db), id)),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') log.error({ err: result.reason }, 'could not finish a requested refund');
  }
  return { payments: pending.length, refunds: requested.length };
}

/** Finishes one pending payment as its request would have, under the recovery policy. */
export async function finishPendingPayment(db: Database, payment: PaymentRow): Promise<void> {
  try {
    await finishMoneyMove(plainPhases(db), payment, { by: 'recovery' });
  } catch (error) {
    const gaveUp = await countFailedTry(db, payment, 'pending', reasonOf(error), error instanceof UnreadableMove);
    if (!gaveUp) log.warn({ err: error, paymentId: payment.id }, 'could not finish a pending payment; recovery tries again');
  }
}

/**
 * One more try that could not finish or settle the payment. Past the limit (or at once when
 * nothing can ever finish it) it becomes `needs_review`: logged once, at error.
 */
async function countFailedTry(db: Database, payment: PaymentRow, from: PaymentReview['from'], reason: string, hopeless = false) {
  const at = now();
  const [row] = await db
    .update(payments)
    .set({ recoveryAttempts: sql`${payments.recoveryAttempts} + 1`, updatedAt: at })
    .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
    .returning({ attempts: payments.recoveryAttempts });
  if (!row || (!hopeless && row.attempts < config.payments.recoveryMaxAttempts)) return undefined;
  const review: PaymentReview = { from, reason, at: at.toISOString() };
  const [marked] = await db
    .update(payments)
    .set({ status: 'needs_review', review, updatedAt: at })
    .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
    .returning({ id: payments.id });
  if (!marked) return undefined;
  log.error(
    { paymentId: payment.id, merchantId: payment.merchantId, from, attempts: row.attempts, reason },
    'payment needs review: recovery could not finish it; settle it in the operator console after checking the processor',
  );
  return 'needs_review' as const;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}

/** Payments handed to a person, across sellers (the operator console). */
export async function listPaymentsNeedingReview(db: Db, limit = 100) {
  return db.select().from(payments).where(eq(payments.status, 'needs_review')).orderBy(payments.createdAt).limit(limit);
}

/**
 * A person checked the processor and settles a `needs_review` payment: a move whose outcome was
 * never recorded is applied with it (its pinned plan), an unknown one is settled. `alongside`
 * writes in the transaction that settles it (the operator console's audit entry).
 */
export async function settleReviewedPayment(
  db: Database,
  paymentId: string,
  outcome: 'succeeded' | 'failed',
  alongside: (tx: Db, payment: PaymentRow) => Promise<void> = async () => {},
): Promise<PaymentRow> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) throw new ApiError('NOT_FOUND', `No payment ${paymentId}.`);
  paymentStateMachine.assertTransition(payment.status, outcome, `Payment ${payment.id} is ${payment.status}`, 'only a payment that needs review');
  const settled: DefiniteOutcome =
    outcome === 'succeeded'
      ? { status: 'succeeded', reference: payment.processorReference ?? `review_${payment.id}`, card: null }
      : {
          status: 'failed',
          reference: payment.processorReference ?? `review_${payment.id}`,
          card: null,
          declineCode: 'settled_by_review',
          message: 'Not charged (checked by a person).',
        };
  if (payment.review?.from === 'pending') {
    try {
      await finishMoneyMove({ db, answer: (tx) => alongside(tx, payment) }, payment, { by: 'review', outcome: settled });
    } catch (error) {
      if (error instanceof PaymentAlreadySettled) throw new ApiError('INVALID_STATE', `Payment ${payment.id} was settled meanwhile.`);
      throw error;
    }
  } else {
    const done = await db.transaction(async (tx) => {
      if (!(await settleCharge(tx, payment, settled, ['needs_review']))) return false;
      await alongside(tx, payment);
      return true;
    });
    if (!done) throw new ApiError('INVALID_STATE', `Payment ${payment.id} was settled meanwhile.`);
  }
  const [after] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), inArray(payments.status, ['succeeded', 'failed'])));
  if (!after) throw new ApiError('INVALID_STATE', `Payment ${payment.id} was not settled.`);
  return after;
}
