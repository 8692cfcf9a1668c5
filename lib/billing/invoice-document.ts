import { formatMoney } from '../money/format';
import { customerText, type CustomerText } from '../i18n/customer-text';
import type { HostedInvoice } from './invoices';
import { documentLines, type DocumentLine } from './document-lines';

/**
 * What an invoice or receipt shows, in words and formatted money, shared by the hosted page,
 * the PDF and the receipt email so they never disagree. Amounts are formatted in the currency's
 * own decimals (lib/money), words and dates in the reader's language (docs/i18n.md).
 */
export interface InvoiceDocument {
  locale: string;
  title: string;
  number: string;
  status: string;
  statusName: string;
  issuedAt: string;
  paidAt: string | null;
  period: string | null;
  seller: { name: string; addressLines: string[]; supportEmail: string | null; supportUrl: string | null };
  billedTo: { name: string | null; email: string | null };
  lines: DocumentLine[];
  totals: { kind: TotalKind; label: string; amount: string; strong?: boolean }[];
  payments: { date: string; description: string; status: string; amount: string }[];
  /** The fixed words around the figures (labels and headings). */
  words: Record<
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
    | 'downloadPdf'
    | 'questions',
    string
  >;
}

type TotalKind = 'subtotal' | 'discount' | 'creditApplied' | 'total' | 'amountPaid' | 'amountDue';

/** `currencyDisplay: 'code'` (USD 10.00) where a symbol cannot be drawn (the PDF's standard fonts). */
export function invoiceDocument(
  { record, customer, seller }: HostedInvoice,
  options: { text?: CustomerText; currencyDisplay?: 'symbol' | 'code' } = {},
): InvoiceDocument {
  const text = options.text ?? customerText();
  const { t } = text;
  const money = (amount: number) => formatMoney(amount, record.currency, text.locale === 'en' ? 'en-US' : text.locale, options.currencyDisplay);
  const locality = [seller.addressPostalCode, seller.addressCity].filter(Boolean).join(' ');
  const addressLines = [seller.addressLine1, seller.addressLine2, [locality, seller.addressRegion].filter(Boolean).join(', '), seller.addressCountry].filter(
    (line): line is string => Boolean(line),
  );
  const totals: InvoiceDocument['totals'] = [];
  const total = (kind: TotalKind, amount: number, strong?: boolean) =>
    totals.push({ kind, label: t(`invoice.${kind}`), amount: money(amount), ...(strong ? { strong } : {}) });
  total('subtotal', record.subtotal);
  if (record.discountAmount > 0) total('discount', -record.discountAmount);
  if (record.creditsApplied > 0) total('creditApplied', -record.creditsApplied);
  total('total', record.total, true);
  total('amountPaid', record.amountPaid);
  total('amountDue', record.amountDue, record.amountDue > 0);
  const word = (key: keyof InvoiceDocument['words']) => t(`invoice.${key}`, { seller: seller.name });
  return {
    locale: text.locale,
    title: t(record.status === 'paid' ? 'invoice.receipt' : 'invoice.invoice'),
    number: record.id,
    status: record.status,
    statusName: t('invoice.stateName', { state: record.status }),
    issuedAt: text.date(record.createdAt),
    paidAt: record.paidAt ? text.date(record.paidAt) : null,
    period:
      record.periodStart && record.periodEnd ? t('invoice.periodRange', { start: text.date(record.periodStart), end: text.date(record.periodEnd) }) : null,
    seller: { name: seller.name, addressLines, supportEmail: seller.supportEmail, supportUrl: seller.supportUrl },
    billedTo: { name: customer.name, email: customer.email },
    lines: documentLines(record.lineItems, record.currency, text, options.currencyDisplay),
    totals,
    payments: record.payments.map((payment) => ({
      date: text.date(payment.createdAt),
      description: payment.card ? text.card(payment.card.brand, payment.card.last4) : t('invoice.payment'),
      status: t('invoice.stateName', { state: payment.status }),
      amount: money(payment.amount),
    })),
    words: Object.fromEntries(
      (
        [
          'number',
          'issued',
          'paid',
          'servicePeriod',
          'billedTo',
          'status',
          'lineItems',
          'description',
          'quantity',
          'amount',
          'payments',
          'downloadPdf',
          'questions',
        ] as const
      ).map((key) => [key, word(key)]),
    ) as InvoiceDocument['words'],
  };
}
