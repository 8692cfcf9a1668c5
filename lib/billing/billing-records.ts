import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, type EventRecorder } from '../events/record-event';
import { ApiError } from '../http/errors';
import type { SubscriptionContext } from '../payments/payments';

type BillingRecordRow = typeof billingRecords.$inferSelect;

export function toBillingRecordResponse(row: BillingRecordRow) {
  return {
    id: row.id,
    status: row.status,
    customerId: row.customerId,
    checkoutId: row.checkoutId,
    paymentId: row.paymentId,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    discountAmount: row.discountAmount,
    couponId: row.couponId,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createBillingRecord(
  tx: Db,
  input: {
    merchantId: string;
    customerId: string;
    checkoutId: string | null;
    paymentId: string;
    amount: number;
    currency: string;
    description: string;
    discountAmount?: number;
    couponId?: string | null;
  },
  options: {
    paid?: boolean;
    record?: EventRecorder;
    context?: SubscriptionContext;
    /** Records the payment's outcome event between `billing_record.created` and `.paid` (one order everywhere). */
    recordPayment?: () => Promise<unknown>;
  } = {},
) {
  const at = now();
  const record = options.record ?? recordEvent;
  const [row] = await tx
    .insert(billingRecords)
    .values({ ...input, id: newId('billingRecord'), status: options.paid ? 'paid' : 'open', paidAt: options.paid ? at : null, createdAt: at, updatedAt: at })
    .returning();
  // Written already paid (one statement fewer), it still tells its story as open, then paid.
  await record(tx, { merchantId: input.merchantId, type: 'billing_record.created', object: { ...toBillingRecordResponse({ ...row!, status: 'open', paidAt: null }), ...options.context } });
  await options.recordPayment?.();
  if (options.paid) await record(tx, { merchantId: input.merchantId, type: 'billing_record.paid', object: { ...toBillingRecordResponse(row!), ...options.context } });
  return row!;
}

/** open → paid | void | uncollectible; anything else is an illegal transition. */
export async function closeBillingRecord(tx: Db, merchantId: string, billingRecordId: string, status: 'paid' | 'void' | 'uncollectible', context?: SubscriptionContext) {
  const at = now();
  const [row] = await tx
    .update(billingRecords)
    .set({ status, paidAt: status === 'paid' ? at : null, updatedAt: at })
    .where(and(eq(billingRecords.id, billingRecordId), eq(billingRecords.merchantId, merchantId), eq(billingRecords.status, 'open')))
    .returning();
  if (!row) throw new ApiError('INVALID_STATE', `Billing record ${billingRecordId} is not open.`);
  if (status === 'paid') await recordEvent(tx, { merchantId, type: 'billing_record.paid', object: { ...toBillingRecordResponse(row), ...context } });
  return row;
}

export async function findOpenBillingRecordForPayment(db: Db, paymentId: string) {
  const [row] = await db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.paymentId, paymentId), eq(billingRecords.status, 'open')));
  return row;
}

export async function findBillingRecordForCheckout(db: Db, checkoutId: string) {
  const [row] = await db.select().from(billingRecords).where(eq(billingRecords.checkoutId, checkoutId));
  return row;
}

/** A retried charge of an open record: the record now points at the latest attempt's payment. */
export async function setBillingRecordPayment(tx: Db, billingRecordId: string, paymentId: string) {
  await tx
    .update(billingRecords)
    .set({ paymentId, updatedAt: now() })
    .where(and(eq(billingRecords.id, billingRecordId), eq(billingRecords.status, 'open')));
}

/** A subscription's first record, written before the checkout that started it: linked afterwards. */
export async function linkBillingRecordToCheckout(tx: Db, billingRecordId: string, checkoutId: string) {
  await tx.update(billingRecords).set({ checkoutId }).where(eq(billingRecords.id, billingRecordId));
}
