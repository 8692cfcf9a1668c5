import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords } from '../db/schema';
import { sendEmail } from '../email/send-email';
import { paymentAuthenticationEmail } from '../email/customer-emails';
import { resolveHostedDesign } from '../designs/hosted-design';
import { customerText } from '../i18n/customer-text';
import { emailLocale } from '../i18n/locales';
import { hostedInvoiceUrl } from './billing-records';
import { lockInvoice } from './invoices';

export type AuthenticationRequest = 'queued' | 'queued_before' | 'not_open' | 'no_email';

/**
 * Asks the customer to confirm the payment of an open record whose off-session charge their bank
 * declined `authentication_required` (docs/processors.md, "Renewals that need authentication"):
 * the "confirm your payment" email, linking to the record's hosted invoice page (whose Pay now
 * charges the card with the customer there), is queued in the caller's transaction, the one
 * recording that outcome. Once per record: the record is locked and remembers its email, so the
 * dunning retries that decline the same way send none. In the customer's recorded language,
 * else English, and the seller's default design.
 */
export async function requestPaymentAuthentication(tx: Db, billingRecordId: string): Promise<AuthenticationRequest> {
  const invoice = await lockInvoice(tx, billingRecordId);
  if (invoice?.row.status !== 'open') return 'not_open';
  if (invoice.row.authenticationEmailId) return 'queued_before';
  if (!invoice.customer.email) return 'no_email';
  const { row, seller } = invoice;
  const locale = emailLocale(invoice.customer.locale);
  const emailId = await sendEmail(
    tx,
    paymentAuthenticationEmail({
      to: invoice.customer.email,
      locale,
      sellerName: seller.name,
      amount: customerText(locale).money(row.amount, row.currency),
      link: hostedInvoiceUrl(row.hostedToken),
      token: row.hostedToken,
      design: await resolveHostedDesign(tx, seller.id),
    }),
  );
  await tx
    .update(billingRecords)
    .set({ authenticationEmailId: emailId })
    .where(and(eq(billingRecords.id, row.id), eq(billingRecords.merchantId, row.merchantId)));
  return 'queued';
}
