import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { billingRecords } from '../db/schema';
import { sendEmail } from '../email/send-email';
import { findInvoiceByToken } from './invoices';
import { invoiceDocument } from './invoice-document';

export type ReceiptResult = 'queued' | 'already_sent' | 'not_paid' | 'receipts_off' | 'no_email';

/**
 * The receipt of a paid billing record: queued in the outbox (the `send-email` job delivers it)
 * at most once, whatever the number of runs: the record is locked and remembers its email. A
 * seller with `sendReceipts` off, or a customer without an email, gets none.
 */
export async function sendReceipt(db: Database, billingRecordId: string): Promise<ReceiptResult> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(billingRecords).where(eq(billingRecords.id, billingRecordId)).for('update');
    if (!locked || locked.status !== 'paid') return 'not_paid';
    if (locked.receiptEmailId) return 'already_sent';
    const invoice = (await findInvoiceByToken(tx, locked.hostedToken))!;
    if (!invoice.seller.sendReceipts) return 'receipts_off';
    if (!invoice.customer.email) return 'no_email';
    const document = invoiceDocument(invoice);
    const total = document.totals.find((line) => line.label === 'Total')!.amount;
    const text = [
      `Thank you for your payment to ${document.seller.name}.`,
      '',
      `Receipt ${document.number}, paid ${document.paidAt}`,
      ...(document.period ? [`Service period: ${document.period}`] : []),
      '',
      ...document.lines.map((line) => `${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}: ${line.amount}`),
      `Total paid: ${total}`,
      '',
      `View your receipt: ${invoice.record.hostedInvoiceUrl}`,
      `Download it as a PDF: ${invoice.record.invoicePdfUrl}`,
      ...(document.seller.supportEmail ? ['', `Questions? Write to ${document.seller.supportEmail}.`] : []),
    ].join('\n');
    const emailId = await sendEmail(tx, { to: invoice.customer.email, subject: `Your receipt from ${document.seller.name} (${total})`, text, category: 'receipt' });
    await tx.update(billingRecords).set({ receiptEmailId: emailId }).where(eq(billingRecords.id, billingRecordId));
    return 'queued';
  });
}
