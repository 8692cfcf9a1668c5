import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, customers, merchants, payments } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { notFound } from '../errors';
import { toPaymentResponse } from '../payments/payments';
import { creditNotesByInvoice, creditNotesOfInvoice, toCreditNoteResponse } from '../payments/credit-notes';
import { toBillingRecordResponse, type BillingRecordRow } from './billing-records';

export type BillingRecordStatus = BillingRecordRow['status'];

/** The payment attempts of each record, oldest first: one query for a whole page. */
async function attemptsOf(db: Db, merchantId: string, rows: BillingRecordRow[]) {
  const ids = [...new Set(rows.flatMap((row) => row.attemptPaymentIds))];
  const found = ids.length
    ? await db
        .select()
        .from(payments)
        .where(and(eq(payments.merchantId, merchantId), inArray(payments.id, ids)))
        .orderBy(asc(payments.createdAt), asc(payments.id))
    : [];
  const byId = new Map(found.map((payment) => [payment.id, toPaymentResponse(payment)]));
  return (row: BillingRecordRow) => row.attemptPaymentIds.flatMap((id) => byId.get(id) ?? []);
}

async function withAttempts(db: Db, merchantId: string, rows: BillingRecordRow[]) {
  const attempts = await attemptsOf(db, merchantId, rows);
  return rows.map((row) => ({ ...toBillingRecordResponse(row), payments: attempts(row) }));
}

export async function listBillingRecords(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'amount'; customerId?: string; subscriptionId?: string; status?: BillingRecordStatus },
) {
  const page = await paginate(db, billingRecords, {
    ...query,
    scope: [eq(billingRecords.merchantId, merchantId)],
    where: [
      query.customerId ? eq(billingRecords.customerId, query.customerId) : undefined,
      query.subscriptionId ? eq(billingRecords.subscriptionId, query.subscriptionId) : undefined,
      query.status ? eq(billingRecords.status, query.status) : undefined,
    ],
    orderBy: [query.orderBy === 'amount' ? billingRecords.amount : billingRecords.createdAt, billingRecords.id],
  });
  return { ...page, data: await withAttempts(db, merchantId, page.data) };
}

export async function getBillingRecord(db: Db, merchantId: string, billingRecordId: string) {
  const [row] = await db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.id, billingRecordId), eq(billingRecords.merchantId, merchantId)));
  if (!row) throw notFound('billing record', billingRecordId);
  const [record] = await withAttempts(db, merchantId, [row]);
  return record!;
}

/**
 * Everything the hosted invoice page and PDF print, found by the page's secret token (no
 * session: holding the link is the permission, as with Stripe's hosted invoices).
 */
export function findInvoiceByToken(db: Db, token: string) {
  return readInvoice(db, eq(billingRecords.hostedToken, token), { lock: false });
}

/** Whether a hosted invoice page's token names an invoice, without reading it. */
export async function invoiceTokenExists(db: Db, token: string): Promise<boolean> {
  const [found] = await db.select({ id: billingRecords.id }).from(billingRecords).where(eq(billingRecords.hostedToken, token));
  return found !== undefined;
}

/** A record's invoice for the receipt, its row locked (`for update`) in the caller's transaction. */
export function lockInvoice(db: Db, billingRecordId: string) {
  return readInvoice(db, eq(billingRecords.id, billingRecordId), { lock: true });
}

async function readInvoice(db: Db, match: SQL, { lock }: { lock: boolean }) {
  const query = db
    .select({ record: billingRecords, customer: customers, seller: merchants })
    .from(billingRecords)
    .innerJoin(customers, eq(customers.id, billingRecords.customerId))
    .innerJoin(merchants, eq(merchants.id, billingRecords.merchantId))
    .where(match);
  const [found] = await (lock ? query.for('update', { of: billingRecords }) : query);
  if (!found) return undefined;
  const [record] = await withAttempts(db, found.record.merchantId, [found.record]);
  const creditNotes = (await creditNotesOfInvoice(db, found.record.merchantId, found.record.id)).map((note) => toCreditNoteResponse(note, found.record.number));
  return { row: found.record, record: record!, customer: found.customer, seller: found.seller, creditNotes };
}

export type HostedInvoice = NonNullable<Awaited<ReturnType<typeof findInvoiceByToken>>>;

/** The invoice a payment paid or tried to pay, with its credit notes (the console's payment page), or null. */
export async function invoiceOfPayment(db: Db, merchantId: string, paymentId: string) {
  const [row] = await db
    .select()
    .from(billingRecords)
    .where(
      and(eq(billingRecords.merchantId, merchantId), or(eq(billingRecords.paymentId, paymentId), sql`${paymentId} = any(${billingRecords.attemptPaymentIds})`)),
    )
    .limit(1);
  if (!row) return null;
  const notes = await creditNotesByInvoice(db, merchantId, [row]);
  return { ...toBillingRecordResponse(row), creditNotes: notes.get(row.id) ?? [] };
}
