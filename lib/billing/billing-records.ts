import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { recordEvent, type EventInput, type EventRecorder } from '../events/record-event';
import { enqueueQueuedJob, type QueuedJob } from '../jobs/enqueue';
import type { SubscriptionContext } from '../payments/payments';
import type { BilledTotals } from './line-items';
import { billingRecordStateMachine } from './billing-record-states';

export type BillingRecordRow = typeof billingRecords.$inferSelect;

/** The hosted invoice page of a record: its path is a random token, so only those given the link can open it. */
export function invoicePath(token: string) {
  return `/invoice/${token}`;
}

export function invoicePdfPath(token: string) {
  return `/invoice/${token}/pdf`;
}

export function hostedInvoiceUrl(token: string) {
  return `${config.publicUrl}${invoicePath(token)}`;
}

export function invoicePdfUrl(token: string) {
  return `${config.publicUrl}${invoicePdfPath(token)}`;
}

/** What the record asks and has received: paid once `paid`; a void record is owed nothing. */
export function billingRecordTotals(row: Pick<BillingRecordRow, 'status' | 'amount'>) {
  const amountPaid = row.status === 'paid' ? row.amount : 0;
  const amountDue = row.status === 'open' || row.status === 'uncollectible' ? row.amount : 0;
  return { total: row.amount, amountPaid, amountDue };
}

/** A billing record (an invoice) as the API and the `billing_record.*` events show it. */
export function toBillingRecordResponse(row: BillingRecordRow) {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    periodIndex: row.periodIndex,
    periodStart: row.periodStart?.toISOString() ?? null,
    periodEnd: row.periodEnd?.toISOString() ?? null,
    checkoutId: row.checkoutId,
    paymentId: row.paymentId,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    lineItems: row.lineItems,
    subtotal: row.subtotal,
    discountAmount: row.discountAmount,
    creditsApplied: row.creditsApplied,
    taxAmount: row.taxAmount,
    taxes: row.taxes,
    taxExempt: row.taxExempt,
    ...billingRecordTotals(row),
    couponId: row.couponId,
    hostedInvoiceUrl: hostedInvoiceUrl(row.hostedToken),
    invoicePdfUrl: invoicePdfUrl(row.hostedToken),
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The receipt of a record just paid, queued with the change (the `send-receipt` job composes and
 * queues the email, lib/billing/receipts.ts); the job key makes a second enqueue a no-op.
 */
export function receiptJob(billingRecordId: string): QueuedJob {
  return { task: 'send-receipt', payload: { billingRecordId }, options: { jobKey: `receipt:${billingRecordId}`, maxAttempts: 10 } };
}

export interface NewBillingRecord {
  merchantId: string;
  customerId: string;
  checkoutId: string | null;
  paymentId: string;
  currency: string;
  description: string;
  couponId?: string | null;
  /** What is billed: lines and totals from `billingLines` (lib/billing/line-items.ts). */
  billed: BilledTotals;
}

/**
 * A new record's row, exactly as it is inserted: id and hosted token are made here (the token:
 * 244 random bits; the column has no default, so no writer can leave it to the database), so a
 * caller can write the record, its events and its answer in one statement without reading the
 * row back.
 */
export function newBillingRecordRow(input: NewBillingRecord, options: { paid?: boolean; context?: SubscriptionContext }, at: Date): BillingRecordRow {
  const { billed, ...fields } = input;
  const period = options.context;
  return {
    ...fields,
    couponId: fields.couponId ?? null,
    id: newId('billingRecord'),
    status: billingRecordStateMachine.start(options.paid ? 'paid' : 'open'),
    amount: billed.amount,
    subtotal: billed.subtotal,
    discountAmount: billed.discountAmount,
    creditsApplied: billed.creditsApplied,
    taxAmount: billed.taxAmount,
    taxes: billed.taxes,
    taxExempt: billed.taxExempt,
    sellerDetails: null,
    customerDetails: null,
    lineItems: billed.lineItems,
    subscriptionId: period?.subscriptionId ?? null,
    periodIndex: period?.periodIndex ?? null,
    periodStart: period?.periodStart ? new Date(period.periodStart) : null,
    periodEnd: period?.periodEnd ? new Date(period.periodEnd) : null,
    attemptPaymentIds: [input.paymentId],
    hostedToken: crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', ''),
    receiptEmailId: null,
    authenticationEmailId: null,
    number: null,
    paidAt: options.paid ? at : null,
    createdAt: at,
    updatedAt: at,
  };
}

/** `billing_record.created` of a new record: written already paid (one statement fewer), it still tells its story as open, then paid. */
export function billingRecordCreatedEvent(row: BillingRecordRow): EventInput {
  return { merchantId: row.merchantId, type: 'billing_record.created', object: toBillingRecordResponse({ ...row, status: 'open', paidAt: null }) };
}

export function billingRecordPaidEvent(row: BillingRecordRow): EventInput {
  return { merchantId: row.merchantId, type: 'billing_record.paid', object: toBillingRecordResponse(row) };
}

export async function createBillingRecord(
  tx: Db,
  input: NewBillingRecord,
  options: {
    paid?: boolean;
    record?: EventRecorder;
    context?: SubscriptionContext;
    /** Records the payment's outcome event between `billing_record.created` and `.paid` (one order everywhere). */
    recordPayment?: () => Promise<unknown>;
  } = {},
) {
  const record = options.record ?? recordEvent;
  const [row] = await tx
    .insert(billingRecords)
    .values(newBillingRecordRow(input, options, now()))
    .returning();
  await record(tx, billingRecordCreatedEvent(row!));
  await options.recordPayment?.();
  if (options.paid) {
    await record(tx, billingRecordPaidEvent(row!));
    await enqueueQueuedJob(tx, receiptJob(row!.id));
  }
  return row!;
}

/** open → paid | void | uncollectible; anything else is an illegal transition (billing-record-states.ts). */
export async function closeBillingRecord(tx: Db, merchantId: string, billingRecordId: string, status: 'paid' | 'void' | 'uncollectible') {
  const at = now();
  const [row] = await tx
    .update(billingRecords)
    .set({ status, paidAt: status === 'paid' ? at : null, updatedAt: at })
    .where(
      and(
        eq(billingRecords.id, billingRecordId),
        eq(billingRecords.merchantId, merchantId),
        inArray(billingRecords.status, billingRecordStateMachine.sourcesOf(status)),
      ),
    )
    .returning();
  if (!row) throw billingRecordStateMachine.refusal(undefined, status, `Billing record ${billingRecordId}`, 'it is not open');
  if (status === 'paid') {
    await recordEvent(tx, billingRecordPaidEvent(row));
    await enqueueQueuedJob(tx, receiptJob(row.id));
  }
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

/**
 * A retried charge of an open record: the record now points at that attempt's payment (the
 * latest, or the one that pays it when an earlier attempt settles last), listed once among its attempts.
 */
export async function setBillingRecordPayment(tx: Db, billingRecordId: string, paymentId: string) {
  const attempts = billingRecords.attemptPaymentIds;
  await tx
    .update(billingRecords)
    .set({
      paymentId,
      attemptPaymentIds: sql`case when ${paymentId} = any(${attempts}) then ${attempts} else array_append(${attempts}, ${paymentId}) end`,
      updatedAt: now(),
    })
    .where(and(eq(billingRecords.id, billingRecordId), eq(billingRecords.status, 'open')));
}

/** A subscription's first record, written before the checkout that started it: linked afterwards. */
export async function linkBillingRecordToCheckout(tx: Db, billingRecordId: string, checkoutId: string) {
  await tx.update(billingRecords).set({ checkoutId }).where(eq(billingRecords.id, billingRecordId));
}
