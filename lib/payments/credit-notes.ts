import crypto from 'node:crypto';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, creditNotes, type CreditNoteLine } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { notFound } from '../errors';
import { config } from '../config';
import { recordEvent } from '../events/record-event';
import { proportionalTaxes, totalTaxOf } from '../tax/calculate';

export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** The hosted credit note page and its PDF: at a random token, like the invoice's (docs/invoices.md). */
export function creditNotePath(token: string) {
  return `/credit-note/${token}`;
}

export function creditNotePdfPath(token: string) {
  return `/credit-note/${token}/pdf`;
}

/** 244 random bits (two v4 UUIDs from Node's CSPRNG), as a billing record's `hostedToken`. */
function newHostedToken() {
  return crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', '');
}

/**
 * A credit note as the API and `credit_note.created` show it: `invoiceNumber` is the number of
 * the billing record it reduces, printed on it as its reference.
 */
export function toCreditNoteResponse(row: CreditNoteRow, invoiceNumber: string | null) {
  return {
    id: row.id,
    number: row.number,
    billingRecordId: row.billingRecordId,
    invoiceNumber,
    refundId: row.refundId,
    customerId: row.customerId,
    currency: row.currency,
    amount: row.amount,
    lineItems: row.lineItems,
    taxAmount: row.taxAmount,
    taxes: row.taxes,
    reason: row.reason,
    hostedUrl: `${config.publicUrl}${creditNotePath(row.hostedToken)}`,
    pdfUrl: `${config.publicUrl}${creditNotePdfPath(row.hostedToken)}`,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The credit note of a refund that succeeded, written in the transaction that records the
 * refund's outcome (docs/invoices.md, "Credit notes"): it reduces the billing record the refunded
 * payment paid, by the refund's amount, in one line naming that invoice, with the invoice's tax
 * reversed in proportion. A payment whose record
 * is void (a charge refunded because what it paid for ended meanwhile) owes nothing to credit.
 */
export async function issueCreditNote(
  tx: Db,
  payment: { id: string; merchantId: string; amount: number },
  refund: { id: string; amount: number; currency: string; reason: string | null },
) {
  const [record] = await tx
    .select()
    .from(billingRecords)
    .where(
      and(
        eq(billingRecords.merchantId, payment.merchantId),
        or(eq(billingRecords.paymentId, payment.id), sql`${payment.id} = any(${billingRecords.attemptPaymentIds})`),
      ),
    )
    .limit(1);
  if (!record || record.status === 'void') return null;
  const whole = refund.amount === payment.amount;
  const line: CreditNoteLine = {
    description: `${whole ? 'Refund' : 'Partial refund'} of invoice ${record.number}`,
    quantity: 1,
    unitAmount: refund.amount,
    amount: refund.amount,
  };
  // The invoice's tax comes back in the share the refund is of what the invoice charged.
  const taxes = proportionalTaxes(record.taxes, refund.amount, record.amount);
  const [row] = await tx
    .insert(creditNotes)
    .values({
      id: newId('creditNote'),
      merchantId: payment.merchantId,
      customerId: record.customerId,
      billingRecordId: record.id,
      refundId: refund.id,
      currency: refund.currency,
      amount: refund.amount,
      lineItems: [line],
      taxAmount: totalTaxOf(taxes),
      taxes,
      reason: refund.reason,
      hostedToken: newHostedToken(),
      createdAt: now(),
    })
    .returning();
  await recordEvent(tx, { merchantId: payment.merchantId, type: 'credit_note.created', object: toCreditNoteResponse(row!, record.number) });
  return row!;
}

const withInvoiceNumber = { note: creditNotes, invoiceNumber: billingRecords.number };

export async function listCreditNotes(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'amount'; billingRecordId?: string; customerId?: string },
) {
  const page = await paginate(db, creditNotes, {
    ...query,
    scope: [eq(creditNotes.merchantId, merchantId)],
    where: [
      query.billingRecordId ? eq(creditNotes.billingRecordId, query.billingRecordId) : undefined,
      query.customerId ? eq(creditNotes.customerId, query.customerId) : undefined,
    ],
    orderBy: [query.orderBy === 'amount' ? creditNotes.amount : creditNotes.createdAt, creditNotes.id],
  });
  const numbers = await invoiceNumbersOf(db, merchantId, page.data);
  return { ...page, data: page.data.map((row) => toCreditNoteResponse(row, numbers.get(row.billingRecordId) ?? null)) };
}

async function invoiceNumbersOf(db: Db, merchantId: string, rows: CreditNoteRow[]) {
  const ids = [...new Set(rows.map((row) => row.billingRecordId))];
  if (ids.length === 0) return new Map<string, string | null>();
  const found = await db
    .select({ id: billingRecords.id, number: billingRecords.number })
    .from(billingRecords)
    .where(and(eq(billingRecords.merchantId, merchantId), inArray(billingRecords.id, ids)));
  return new Map(found.map((record) => [record.id, record.number]));
}

export async function getCreditNote(db: Db, merchantId: string, creditNoteId: string) {
  const [found] = await db
    .select(withInvoiceNumber)
    .from(creditNotes)
    .innerJoin(billingRecords, eq(billingRecords.id, creditNotes.billingRecordId))
    .where(and(eq(creditNotes.id, creditNoteId), eq(creditNotes.merchantId, merchantId)));
  if (!found) throw notFound('credit note', creditNoteId);
  return toCreditNoteResponse(found.note, found.invoiceNumber);
}

/** The credit notes issued against one invoice, oldest first, for its documents. */
export function creditNotesOfInvoice(db: Db, merchantId: string, billingRecordId: string) {
  return db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.merchantId, merchantId), eq(creditNotes.billingRecordId, billingRecordId)))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.id));
}

/** The credit notes of the seller's invoices `billingRecordIds`, oldest first, by invoice (the console lists them under each record). */
export async function creditNotesByInvoice(db: Db, merchantId: string, invoices: readonly { id: string; number: string | null }[]) {
  const byInvoice = new Map<string, ReturnType<typeof toCreditNoteResponse>[]>();
  if (invoices.length === 0) return byInvoice;
  const numbers = new Map(invoices.map((invoice) => [invoice.id, invoice.number]));
  const rows = await db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.merchantId, merchantId), inArray(creditNotes.billingRecordId, [...numbers.keys()])))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.id));
  for (const row of rows) {
    const notes = byInvoice.get(row.billingRecordId) ?? [];
    notes.push(toCreditNoteResponse(row, numbers.get(row.billingRecordId) ?? null));
    byInvoice.set(row.billingRecordId, notes);
  }
  return byInvoice;
}
