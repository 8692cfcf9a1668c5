import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { payments } from '../db/schema';
import { now } from '../clock';
import { paymentProcessor } from '../payments/processor';
import { settleUnknownPaymentRow } from '../payments/payments';
import { closeBillingRecord, findOpenBillingRecordForPayment } from '../billing/billing-records';
import { enqueueJob } from '../jobs/enqueue';
import { failCheckout, findCheckoutRowByPayment, markCheckoutPaid } from './checkouts';

export type ReconcileResult = 'succeeded' | 'failed' | 'still_unknown' | 'not_unknown';

/**
 * Asks the processor about a payment whose charge timed out and settles it:
 * unknown → succeeded (billing record paid, checkout paid) or → failed (record void, checkout
 * failed, promotion and link slot given back). Idempotent: a settled payment is left alone.
 */
export async function reconcilePayment(db: Database, paymentId: string): Promise<ReconcileResult> {
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!payment || payment.status !== 'unknown') return 'not_unknown';
    const outcome = await paymentProcessor().retrieveCharge(payment.processorReference ?? '');
    if (outcome.status === 'unknown') return 'still_unknown';
    await settleUnknownPaymentRow(tx, payment.id, outcome);
    const checkout = await findCheckoutRowByPayment(tx, payment.id);
    const record = await findOpenBillingRecordForPayment(tx, payment.id);
    if (outcome.status === 'succeeded') {
      if (record) await closeBillingRecord(tx, payment.merchantId, record.id, 'paid');
      if (checkout) await markCheckoutPaid(tx, checkout);
    } else {
      if (record) await closeBillingRecord(tx, payment.merchantId, record.id, 'void');
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
