import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { billingRecords } from '../db/schema';
import { writeEmail, type OutboundEmail } from '../email/send-email';
import { escapeHtml } from '../designs/escape-html';
import { designedEmailHtml, emailButton } from '../designs/email';
import { resolveHostedDesign } from '../designs/hosted-design';
import { lockInvoice } from './invoices';
import { invoiceDocument } from './invoice-document';
import { customerText } from '../i18n/customer-text';
import { emailLocale } from '../i18n/locales';

export type ReceiptResult =
  | { outcome: 'written'; email: OutboundEmail }
  | { outcome: 'written_before'; emailId: string }
  | { outcome: 'not_paid' | 'receipts_off' | 'no_email' };

/**
 * The receipt of a paid billing record, written in the outbox at most once, whatever the number
 * of runs: the record is locked and remembers its email. The caller delivers it (`deliverEmail`,
 * also after `written_before`: an earlier run may have stopped before delivering). A seller with
 * `sendReceipts` off, or a customer without an email, gets none. In the customer's recorded
 * language (docs/i18n.md), else English.
 */
export async function writeReceipt(db: Database, billingRecordId: string): Promise<ReceiptResult> {
  return db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, billingRecordId);
    if (invoice?.row.status !== 'paid') return { outcome: 'not_paid' };
    if (invoice.row.receiptEmailId) return { outcome: 'written_before', emailId: invoice.row.receiptEmailId };
    if (!invoice.seller.sendReceipts) return { outcome: 'receipts_off' };
    if (!invoice.customer.email) return { outcome: 'no_email' };
    const text = customerText(emailLocale(invoice.customer.locale));
    const { t } = text;
    const document = invoiceDocument(invoice, { text });
    const total = document.totals.find((line) => line.kind === 'total')!.amount;
    const party = (who: typeof document.billedTo) => [...who.addressLines, ...(who.taxId ? [who.taxId] : [])];
    const body = [
      t('invoice.receiptThanks', { seller: document.seller.name }),
      '',
      t('invoice.receiptLine', { number: document.number, date: document.paidAt ?? document.issuedAt }),
      ...(document.period ? [t('invoice.receiptPeriod', { period: document.period })] : []),
      '',
      document.seller.name,
      ...party(document.seller),
      '',
      `${document.words.billedTo}: ${[document.billedTo.name, document.billedTo.email].filter(Boolean).join(', ')}`,
      ...party(document.billedTo),
      '',
      ...document.lines.flatMap((line) => [
        `${line.description}${line.quantity > 1 ? ` × ${line.quantityLabel}` : ''}: ${line.amount}`,
        ...line.details.map((detail) => `  ${detail}`),
      ]),
      ...document.totals.filter((line) => line.kind === 'tax').map((line) => `${line.label}: ${line.amount}`),
      t('invoice.receiptTotal', { total }),
      ...document.notes,
      ...(document.seller.footer ? ['', document.seller.footer] : []),
      '',
      t('invoice.receiptView', { url: invoice.record.hostedInvoiceUrl }),
      t('invoice.receiptPdf', { url: invoice.record.invoicePdfUrl }),
      ...(document.seller.supportEmail ? ['', t('invoice.receiptQuestions', { email: document.seller.supportEmail })] : []),
    ].join('\n');
    // In the seller's default design, when they have one; otherwise the plain text alone, as before.
    const design = await resolveHostedDesign(tx, invoice.seller.id);
    const html = design
      ? designedEmailHtml(
          design,
          `<p>${body
            .split('\n\n')
            .map((block) => block.split('\n').map(escapeHtml).join('<br>'))
            .join('</p><p>')}</p>${emailButton(design, invoice.record.hostedInvoiceUrl, t('invoice.receiptButton'))}`,
          text.designWords(),
        )
      : undefined;
    const email = await writeEmail(tx, {
      to: invoice.customer.email,
      subject: t('invoice.receiptSubject', { seller: document.seller.name, total }),
      text: body,
      html,
      category: 'receipt',
    });
    await tx
      .update(billingRecords)
      .set({ receiptEmailId: email.id })
      .where(and(eq(billingRecords.id, billingRecordId), eq(billingRecords.merchantId, invoice.row.merchantId)));
    return { outcome: 'written', email };
  });
}
