import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, creditNotes, customers, merchants } from '../db/schema';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { documentParties, documentTaxLines } from './document-parts';
import { documentMoney, documentWords, type InvoiceDocument } from './invoice-document';
import { invoicePath } from './billing-records';

/**
 * A credit note with what its page and PDF print, found by its secret token (no session: holding
 * the link is the permission, as for the hosted invoice).
 */
export async function findCreditNoteByToken(db: Db, token: string) {
  const [found] = await db
    .select({
      note: creditNotes,
      invoice: { number: billingRecords.number, hostedToken: billingRecords.hostedToken, taxExempt: billingRecords.taxExempt },
      customer: customers,
      seller: merchants,
    })
    .from(creditNotes)
    .innerJoin(billingRecords, eq(billingRecords.id, creditNotes.billingRecordId))
    .innerJoin(customers, eq(customers.id, creditNotes.customerId))
    .innerJoin(merchants, eq(merchants.id, creditNotes.merchantId))
    .where(eq(creditNotes.hostedToken, token));
  return found;
}

/** Whether a hosted credit note page's token names a credit note, without reading it. */
export async function creditNoteTokenExists(db: Db, token: string): Promise<boolean> {
  const [found] = await db.select({ id: creditNotes.id }).from(creditNotes).where(eq(creditNotes.hostedToken, token));
  return found !== undefined;
}

export type HostedCreditNote = NonNullable<Awaited<ReturnType<typeof findCreditNoteByToken>>>;

/*
 * A credit note's line keeps the English it was written with (lib/payments/credit-notes.ts);
 * its documents reword it in the reader's language.
 */
const REFUND_LINE = /^(Refund|Partial refund) of invoice (.+)$/;

/**
 * The credit note as its hosted page and PDF show it: its number, the invoice it reduces, the
 * parties as they were when it was numbered, its lines, the tax it gives back per rate (inside
 * the amount credited, so marked "included") and the total credited.
 */
export function creditNoteDocument(
  { note, invoice, customer, seller }: HostedCreditNote,
  options: { text?: CustomerText; currencyDisplay?: 'symbol' | 'code' } = {},
): InvoiceDocument {
  const text = options.text ?? customerText();
  const { t } = text;
  const money = documentMoney(note.currency, text, options.currencyDisplay);
  const parties = documentParties(note, { seller, customer }, text);
  const count = new Intl.NumberFormat(text.locale === 'en' ? 'en-US' : text.locale);
  const invoiceNumber = invoice.number ?? note.billingRecordId;
  return {
    locale: text.locale,
    title: t('invoice.creditNote'),
    number: note.number ?? note.id,
    status: null,
    statusName: null,
    reference: { text: t('invoice.creditNoteFor', { number: invoiceNumber }), href: invoicePath(invoice.hostedToken) },
    issuedAt: text.date(note.createdAt),
    paidAt: null,
    period: null,
    seller: { ...parties.seller, supportEmail: seller.supportEmail, supportUrl: seller.supportUrl },
    billedTo: parties.buyer,
    lines: note.lineItems.map((line) => {
      const refund = REFUND_LINE.exec(line.description);
      const description = refund ? t(refund[1] === 'Refund' ? 'invoice.refundOf' : 'invoice.partialRefundOf', { number: refund[2]! }) : line.description;
      return { kind: 'refund', description, quantity: line.quantity, quantityLabel: count.format(line.quantity), amount: money(line.amount), details: [] };
    }),
    totals: [
      ...documentTaxLines(note.taxes, money, text, true).map((tax) => ({ kind: 'tax' as const, label: tax.label, amount: tax.amount })),
      { kind: 'totalCredited', label: t('invoice.totalCredited'), amount: money(note.amount), strong: true },
    ],
    notes: invoice.taxExempt === 'reverse' ? [t('invoice.reverseCharge')] : [],
    payments: [],
    creditNotes: [],
    words: documentWords(text, seller.name, { number: 'invoice.creditNoteNumber', billedTo: 'invoice.issuedTo' }),
  };
}
