import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { plainPhases } from '../db/phases';
import { payments, refunds } from '../db/schema';
import { now } from '../clock';
import { log } from '../log';
import { paymentProcessor } from '../payments/processor';
import { settleUnknownPaymentRow, type PaymentRow } from '../payments/payments';
import { finishRefund } from '../payments/refunds';
import { resumeChargePhases } from '../payments/charges';
import { resumeSubscriptionCharge } from '../subscriptions/resume';
import { settleSubscriptionCharge } from '../subscriptions/dunning';
import { closeBillingRecord, findOpenBillingRecordForPayment } from '../billing/billing-records';
import { enqueueJob } from '../jobs/enqueue';
import { finishCheckout } from './checkouts';
import { failCheckout, findCheckoutRowByPayment, markCheckoutPaid } from './checkout-status';
import { startSubscriptionFromCheckout, type RecurringCheckoutRequest } from './subscription-handoff';

export type ReconcileResult = 'succeeded' | 'failed' | 'still_unknown' | 'not_unknown';

/**
 * Asks the processor about a payment whose charge timed out (no transaction open), then settles
 * it: unknown → succeeded (billing record paid, checkout paid) or → failed (record void, checkout
 * failed, promotion and link slot given back). Idempotent: a settled payment is left alone.
 */
export async function reconcilePayment(db: Database, paymentId: string): Promise<ReconcileResult> {
  const [unknown] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (unknown?.status !== 'unknown') return 'not_unknown';
  const answer = await paymentProcessor().retrieveCharge(unknown.processorKey ?? unknown.id);
  if (answer.status === 'unknown') return 'still_unknown';
  // The processor never saw the charge: nothing was taken.
  const outcome =
    answer.status === 'not_found' ? { status: 'failed' as const, declineCode: 'processor_error', message: 'The payment could not be processed.' } : answer;
  return db.transaction(async (tx) => {
    const checkout = await findCheckoutRowByPayment(tx, paymentId);
    const subscriptionCharge = await settleSubscriptionCharge(tx, paymentId, outcome);
    if (subscriptionCharge !== 'not_subscription') {
      if (subscriptionCharge === 'already_settled') return 'not_unknown';
      // A subscription checkout: paid (or failed) with its first charge.
      if (checkout && outcome.status === 'succeeded') await markCheckoutPaid(tx, checkout);
      else if (checkout) await failCheckout(tx, checkout);
      return outcome.status;
    }
    const settled = await settleUnknownPaymentRow(tx, paymentId, outcome);
    if (!settled) return 'not_unknown';
    const record = await findOpenBillingRecordForPayment(tx, paymentId);
    if (outcome.status === 'succeeded') {
      if (record) await closeBillingRecord(tx, settled.merchantId, record.id, 'paid');
      if (checkout) await markCheckoutPaid(tx, checkout);
    } else {
      if (record) await closeBillingRecord(tx, settled.merchantId, record.id, 'void');
      if (checkout) await failCheckout(tx, checkout);
    }
    return outcome.status;
  });
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
 * Finishes the payments and refunds whose request stopped between phase 1 and phase 3 (a crash):
 * the processor is asked again with the same idempotency key (it charges or refunds at most
 * once), and the action records its outcome exactly as the request would have.
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
  const results = await Promise.allSettled([
    ...pending.map((payment) => finishPendingPayment(db, payment)),
    ...requested.map(({ id }) => finishRefund(plainPhases(db), id)),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') log.error({ err: result.reason }, 'could not finish a pending payment or refund');
  }
  return { payments: pending.length, refunds: requested.length };
}

/** Finishes one pending payment as its request would have (phases 2 and 3 of its action). */
export async function finishPendingPayment(db: Database, payment: PaymentRow): Promise<void> {
  const phases = plainPhases(db);
  const intent = payment.intent ?? {};
  switch (intent.kind) {
    case 'checkout':
      await finishCheckout(phases, payment);
      return;
    case 'subscription-checkout': {
      const request = intent.request as RecurringCheckoutRequest;
      await resumeChargePhases(phases, payment, (tx) => startSubscriptionFromCheckout(tx, request));
      return;
    }
    default:
      await resumeSubscriptionCharge(phases, payment);
  }
}
