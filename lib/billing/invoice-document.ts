import { formatMoney } from '../money/format';
import { customerText, type CustomerText } from '../i18n/customer-text';
import type { HostedInvoice } from './invoices';
import { documentLines, type DocumentLine } from './document-lines';
import { documentParties, documentTaxLines, type DocumentParty } from './document-parts';

/**
 * What an invoice, receipt or credit note shows, in words and formatted money, shared by the
 * hosted pages, the PDFs and the receipt email so they never disagree. Amounts are formatted in
 * the currency's own decimals (lib/money), words and dates in the reader's language (docs/i18n.md).
 */
export interface InvoiceDocument {
  locale: string;
  title: string;
  number: string;
  /** The record's state (tone of its badge); null on a credit note, which has none. */
  status: string | null;
  statusName: string | null;
  /** A credit note's reference: "Credit note for invoice ACME-0001", linking that invoice. */
  reference: { text: string; href: string | null } | null;
  issuedAt: string;
  paidAt: string | null;
  period: string | null;
  seller: DocumentParty & { name: string; footer: string | null; supportEmail: string | null; supportUrl: string | null };
  billedTo: DocumentParty;
  lines: DocumentLine[];
  totals: { kind: TotalKind; label: string; amount: string; strong?: boolean }[];
  /** Legal mentions under the totals ("Reverse charge: the buyer accounts for VAT."). */
  notes: string[];
  payments: { date: string; description: string; status: string; amount: string }[];
  /** The credit notes issued against an invoice, with their hosted pages. */
  creditNotes: { number: string; date: string; amount: string; href: string }[];
  /** The fixed words around the figures (labels and headings). */
  words: Record<WordKey, string>;
}

type WordKey =
  | 'number'
  | 'issued'
  | 'paid'
  | 'servicePeriod'
  | 'billedTo'
  | 'status'
  | 'lineItems'
  | 'description'
  | 'quantity'
  | 'amount'
  | 'payments'
  | 'creditNotes'
  | 'downloadPdf'
  | 'questions';

export type TotalKind = 'subtotal' | 'discount' | 'tax' | 'creditApplied' | 'total' | 'totalCredited' | 'amountPaid' | 'amountDue';

const WORDS: Record<WordKey, string> = {
  number: 'invoice.invoiceNumber',
  issued: 'invoice.issued',
  paid: 'invoice.paid',
  servicePeriod: 'invoice.servicePeriod',
  billedTo: 'invoice.billedTo',
  status: 'invoice.status',
  lineItems: 'invoice.lineItems',
  description: 'invoice.description',
  quantity: 'invoice.quantity',
  amount: 'invoice.amount',
  payments: 'invoice.payments',
  creditNotes: 'invoice.creditNotes',
  downloadPdf: 'invoice.downloadPdf',
  questions: 'invoice.questions',
};

/** The fixed words of a document, `overrides` naming other message keys for some (a credit note's number). */
export function documentWords(text: CustomerText, sellerName: string, overrides: Partial<Record<WordKey, string>> = {}): Record<WordKey, string> {
  const keys = { ...WORDS, ...overrides };
  return Object.fromEntries(Object.entries(keys).map(([word, key]) => [word, text.t(key as 'invoice.number', { seller: sellerName })])) as Record<
    WordKey,
    string
  >;
}

/** The money formatter of a document: the reader's digits (en: en-US), `code` where a symbol cannot be drawn (the PDF). */
export function documentMoney(currency: string, text: CustomerText, currencyDisplay?: 'symbol' | 'code') {
  return (amount: number) => formatMoney(amount, currency, text.locale === 'en' ? 'en-US' : text.locale, currencyDisplay);
}

/** "paid · partly refunded" once credit notes gave back part of a paid invoice, else the record's state. */
function statusName(invoice: HostedInvoice, text: CustomerText) {
  const { record, creditNotes } = invoice;
  const credited = creditNotes.reduce((sum, note) => sum + note.amount, 0);
  if (record.status === 'paid' && credited > 0) return text.t(credited >= record.total ? 'invoice.paidRefunded' : 'invoice.paidPartlyRefunded');
  return text.t('invoice.stateName', { state: record.status });
}

/** `currencyDisplay: 'code'` (USD 10.00) where a symbol cannot be drawn (the PDF's standard fonts). */
export function invoiceDocument(invoice: HostedInvoice, options: { text?: CustomerText; currencyDisplay?: 'symbol' | 'code' } = {}): InvoiceDocument {
  const { record, row, customer, seller } = invoice;
  const text = options.text ?? customerText();
  const { t } = text;
  const money = documentMoney(record.currency, text, options.currencyDisplay);
  const parties = documentParties(row, { seller, customer }, text);
  const totals: InvoiceDocument['totals'] = [];
  const total = (kind: TotalKind, amount: number, strong?: boolean) =>
    totals.push({ kind, label: t(`invoice.${kind}` as 'invoice.total'), amount: money(amount), ...(strong ? { strong } : {}) });
  total('subtotal', record.subtotal);
  if (record.discountAmount > 0) total('discount', -record.discountAmount);
  for (const tax of documentTaxLines(record.taxes, money, text)) totals.push({ kind: 'tax', label: tax.label, amount: tax.amount });
  if (record.creditsApplied > 0) total('creditApplied', -record.creditsApplied);
  total('total', record.total, true);
  total('amountPaid', record.amountPaid);
  total('amountDue', record.amountDue, record.amountDue > 0);
  return {
    locale: text.locale,
    title: t(record.status === 'paid' ? 'invoice.receipt' : 'invoice.invoice'),
    number: record.number ?? record.id,
    status: record.status,
    statusName: statusName(invoice, text),
    reference: null,
    issuedAt: text.date(record.createdAt),
    paidAt: record.paidAt ? text.date(record.paidAt) : null,
    period:
      record.periodStart && record.periodEnd ? t('invoice.periodRange', { start: text.date(record.periodStart), end: text.date(record.periodEnd) }) : null,
    seller: { ...parties.seller, supportEmail: seller.supportEmail, supportUrl: seller.supportUrl },
    billedTo: parties.buyer,
    // Tax added on top is a line of the record (so its lines add up); the documents show it per rate with the totals.
    lines: documentLines(
      record.lineItems.filter((line) => line.kind !== 'tax'),
      record.currency,
      text,
      options.currencyDisplay,
    ),
    totals,
    notes: record.taxExempt === 'reverse' ? [t('invoice.reverseCharge')] : [],
    payments: record.payments.map((payment) => ({
      date: text.date(payment.createdAt),
      description: payment.card ? text.card(payment.card.brand, payment.card.last4) : t('invoice.payment'),
      status: t('invoice.stateName', { state: payment.status }),
      amount: money(payment.amount),
    })),
    creditNotes: invoice.creditNotes.map((note) => ({
      number: note.number ?? note.id,
      date: text.date(note.createdAt),
      amount: money(-note.amount),
      // A path: the page links its credit notes on the origin it was opened on.
      href: new URL(note.hostedUrl).pathname,
    })),
    words: documentWords(text, seller.name),
  };
}
