import { and, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { payments, refunds, type PaymentReview } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { log } from '../log';
import { enqueueJob, enqueueQueuedJob } from '../jobs/enqueue';
import { ApiError } from '../errors';
import { metrics } from '../metrics/registry';
import { processorOf } from './processor';
import { finishMoneyMove, lockPayment, PaymentAlreadySettled, pinnedMoveOf, UnreadableMove, type DefiniteOutcome } from './money-moves';
import { reconcilePaymentJob, settleUnknownPaymentRow, type PaymentRow } from './payments';
import type { CanceledCharge } from './processor/types';
import { finishRefund } from './refunds';
import { paymentStateMachine } from './payment-states';

/**
 * Recovery of money moves (docs/payments.md, "Recovery"): a move whose request stopped between
 * phase 1 and phase 3 is finished with its pinned plan (lib/payments/money-moves.ts), and an
 * `unknown` charge is settled once the processor tells. Each try that cannot finish or settle
 * counts; past PAYMENT_RECOVERY_MAX_ATTEMPTS the payment is `needs_review`, logged once at error
 * and listed in the operator console, where a person settles it.
 */

/** The connection that made the payment was disconnected: nobody can tell from here, so it ends in review after its tries. */
const UNREACHABLE = { status: 'unknown' } as const;

/** `awaiting_customer`: a `requires_action` payment whose customer may still authenticate (its next check is queued). */
export type ReconcileResult = 'succeeded' | 'failed' | 'still_unknown' | 'not_unknown' | 'needs_review' | 'awaiting_customer';

/**
 * Asks the processor about a payment whose charge timed out, or waits for the customer's
 * authentication (no transaction open), then settles it through its kind (billing record,
 * checkout, subscription follow). Idempotent.
 */
export async function reconcilePayment(db: Database, paymentId: string): Promise<ReconcileResult> {
  const [unknown] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (unknown?.status === 'requires_action') return reconcileAuthentication(db, unknown);
  if (unknown?.status !== 'unknown') return 'not_unknown';
  const processor = await processorOf(db, unknown);
  const answer = processor ? await processor.retrieveCharge(unknown.processorKey ?? unknown.id) : UNREACHABLE;
  if (answer.status === 'unknown' || answer.status === 'requires_action')
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

/**
 * A payment waiting for its customer to authenticate (docs/payments.md, "Authentication"): the
 * processor's answer settles it, exactly as an unknown one settles. Still waiting after
 * PAYMENT_ACTION_TIMEOUT_MS, it is abandoned: canceled at the processor (an authentication that
 * slipped in first is what the cancel answers) and failed, which gives back its reservations.
 * Still waiting before that, the next look is queued: sooner while the customer is likely at it.
 */
async function reconcileAuthentication(db: Database, payment: PaymentRow): Promise<ReconcileResult> {
  const key = payment.processorKey ?? payment.id;
  const processor = await processorOf(db, payment);
  const seen = processor ? await processor.retrieveCharge(key) : UNREACHABLE;
  const waitedMs = now().getTime() - payment.updatedAt.getTime();
  let answer: Exclude<typeof seen, { status: 'requires_action' }> | CanceledCharge;
  if (seen.status !== 'requires_action') answer = seen;
  else if (waitedMs < config.payments.actionTimeoutMs) {
    const nextInMs = Math.min(Math.max(config.payments.reconcileDelayMs, waitedMs), config.payments.actionTimeoutMs - waitedMs);
    await enqueueQueuedJob(db, reconcilePaymentJob(payment.id, nextInMs));
    return 'awaiting_customer';
  } else answer = processor ? await processor.cancelCharge({ idempotencyKey: key, amount: payment.amount, currency: payment.currency }) : UNREACHABLE;
  if (answer.status === 'unknown')
    return (await countFailedTry(db, payment, 'requires_action', 'the processor cannot tell how the authentication ended')) ?? 'still_unknown';
  const reference = payment.processorReference ?? `none_${payment.id}`;
  const outcome: DefiniteOutcome =
    answer.status === 'succeeded'
      ? { status: 'succeeded', reference: answer.reference, card: null }
      : answer.status === 'failed'
        ? { status: 'failed', reference: answer.reference, card: null, declineCode: answer.declineCode, message: answer.message }
        : answer.status === 'canceled'
          ? { status: 'failed', reference, card: null, ...AUTHENTICATION_ABANDONED }
          : { status: 'failed', reference, card: null, declineCode: 'processor_error', message: 'The payment could not be processed.' };
  try {
    return await db.transaction(async (tx) => ((await settleCharge(tx, payment, outcome, ['requires_action'])) ? outcome.status : 'not_unknown'));
  } catch (error) {
    return (await countFailedTry(db, payment, 'requires_action', reasonOf(error))) ?? 'still_unknown';
  }
}

const AUTHENTICATION_ABANDONED = {
  declineCode: 'authentication_abandoned',
  message: 'The customer did not complete the card authentication in time; nothing was charged.',
} as const;

/** unknown, requires_action (or needs_review) → the outcome, through the payment's kind; false when another run settled it. */
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

/**
 * Safety net for reconciliation jobs that were lost or exhausted: re-enqueues old unknown
 * payments, and `requires_action` ones past their authentication timeout (to be canceled).
 */
export async function enqueueStaleUnknownPayments(db: Database, olderThanMs: number): Promise<number> {
  const at = now().getTime();
  const stale = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      or(
        and(eq(payments.status, 'unknown'), lte(payments.updatedAt, new Date(at - olderThanMs))),
        and(eq(payments.status, 'requires_action'), lte(payments.updatedAt, new Date(at - config.payments.actionTimeoutMs))),
      ),
    )
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
  metrics().paymentsToReview.inc();
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
