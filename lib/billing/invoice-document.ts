import { formatMoney } from '../money/format';
import type { HostedInvoice } from './invoices';

/**
 * What an invoice or receipt shows, in words and formatted money, shared by the hosted page,
 * the PDF and the receipt email so they never disagree. Amounts are formatted in the currency's
 * own decimals (lib/money). Kept apart from the page and the PDF so branding and translations
 * can be hooked in at one place.
 */
export interface InvoiceDocument {
  title: 'Receipt' | 'Invoice';
  number: string;
  status: string;
  issuedAt: string;
  paidAt: string | null;
  period: string | null;
  seller: { name: string; addressLines: string[]; supportEmail: string | null; supportUrl: string | null };
  billedTo: { name: string | null; email: string | null };
  lines: { description: string; quantity: number; amount: string }[];
  totals: { label: string; amount: string; strong?: boolean }[];
  payments: { date: string; description: string; status: string; amount: string }[];
}

const day = (iso: string) => iso.slice(0, 10);

/** `currencyDisplay: 'code'` (USD 10.00) where a symbol cannot be drawn (the PDF's standard fonts). */
export function invoiceDocument({ record, customer, seller }: HostedInvoice, options: { currencyDisplay?: 'symbol' | 'code' } = {}): InvoiceDocument {
  const money = (amount: number) => formatMoney(amount, record.currency, 'en-US', options.currencyDisplay);
  const locality = [seller.addressPostalCode, seller.addressCity].filter(Boolean).join(' ');
  const addressLines = [seller.addressLine1, seller.addressLine2, [locality, seller.addressRegion].filter(Boolean).join(', '), seller.addressCountry].filter(
    (line): line is string => Boolean(line),
  );
  const totals: InvoiceDocument['totals'] = [{ label: 'Subtotal', amount: money(record.subtotal) }];
  if (record.discountAmount > 0) totals.push({ label: 'Discount', amount: money(-record.discountAmount) });
  if (record.creditsApplied > 0) totals.push({ label: 'Credit applied', amount: money(-record.creditsApplied) });
  totals.push({ label: 'Total', amount: money(record.total), strong: true });
  totals.push({ label: 'Amount paid', amount: money(record.amountPaid) });
  totals.push({ label: 'Amount due', amount: money(record.amountDue), strong: record.amountDue > 0 });
  return {
    title: record.status === 'paid' ? 'Receipt' : 'Invoice',
    number: record.id,
    status: record.status,
    issuedAt: day(record.createdAt),
    paidAt: record.paidAt ? day(record.paidAt) : null,
    period: record.periodStart && record.periodEnd ? `${day(record.periodStart)} to ${day(record.periodEnd)}` : null,
    seller: { name: seller.name, addressLines, supportEmail: seller.supportEmail, supportUrl: seller.supportUrl },
    billedTo: { name: customer.name, email: customer.email },
    lines: record.lineItems.map((line) => ({ description: line.description, quantity: line.quantity, amount: money(line.amount) })),
    totals,
    payments: record.payments.map((payment) => ({
      date: day(payment.createdAt),
      description: payment.card ? `${payment.card.brand} •••• ${payment.card.last4}` : 'Payment',
      status: payment.status,
      amount: money(payment.amount),
    })),
  };
}
