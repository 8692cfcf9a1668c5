import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { customers, lifecycleEmails, type LifecycleEmailKind } from '../db/schema';
import { config } from '../config';
import { sendEmail, type EmailMessage } from '../email/send-email';
import { escapeHtml } from '../designs/escape-html';
import { designedEmailHtml, emailButton } from '../designs/email';
import { resolveHostedDesign, type HostedDesign } from '../designs/hosted-design';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { emailLocale } from '../i18n/locales';
import { findMerchantById, type MerchantRow } from '../merchants/merchants';
import type { LifecycleEmailSetting } from '../merchants/settings';
import type { CustomerRow } from '../customers/customers';
import { portalPath } from '../portal/portal';

/** The seller setting that turns each lifecycle email off (lib/merchants/settings.ts). */
export const SETTING_OF: Record<LifecycleEmailKind, LifecycleEmailSetting> = {
  trial_ending: 'sendTrialEndingEmails',
  subscription_canceled: 'sendCancellationEmails',
  subscription_ended: 'sendCancellationEmails',
  refund_issued: 'sendRefundEmails',
  renewal_failed: 'sendPaymentFailedEmails',
  card_expiring: 'sendCardExpiringEmails',
  renewal_upcoming: 'sendRenewalReminderEmails',
};

/** The outbox `category` of each lifecycle email (what tests and the dev mailbox find it by). */
export const CATEGORY_OF: Record<LifecycleEmailKind, string> = {
  trial_ending: 'trial.ending',
  subscription_canceled: 'subscription.canceled',
  subscription_ended: 'subscription.ended',
  refund_issued: 'refund.issued',
  renewal_failed: 'renewal.failed',
  card_expiring: 'card.expiring',
  renewal_upcoming: 'renewal.upcoming',
};

/** Who the email is to and what it is about: at most one email per `(merchantId, kind, subjectKey)`. */
export interface LifecycleClaim {
  merchantId: string;
  customerId: string;
  kind: LifecycleEmailKind;
  subjectKey: string;
}

/** What a lifecycle email's composer works with: the seller, the customer, their words, the seller's design. */
export interface LifecycleContext {
  tx: Transaction;
  seller: MerchantRow;
  customer: CustomerRow;
  text: CustomerText;
  design: HostedDesign | null;
  portalUrl: string;
}

/** An email's words: paragraphs, then what to do and the link to do it (shown as the design's button). */
export interface LifecycleContent {
  subject: string;
  paragraphs: string[];
  action?: { text: string; url: string; button: string };
}

export type LifecycleOutcome = 'written' | 'written_before' | 'off' | 'no_email' | 'not_due';

class WrittenMeanwhile extends Error {}

/**
 * Writes one lifecycle email in the outbox (and queues its sending) at most once per claim, in one
 * transaction with the claim's row: a job run twice, or a sweep on two nodes at once, writes one.
 * Nothing when the seller turned this email off, when the customer has no email address, or when
 * `compose` finds it no longer due (answers null: the subscription was reactivated, the record paid…).
 * In the customer's recorded language, else English, in the seller's default design.
 */
export async function writeLifecycleEmail(
  db: Database,
  claim: LifecycleClaim,
  compose: (context: LifecycleContext) => Promise<LifecycleContent | null>,
): Promise<LifecycleOutcome> {
  try {
    return await db.transaction(async (tx) => {
      if (await alreadyWritten(tx, claim)) return 'written_before';
      const seller = await findMerchantById(tx, claim.merchantId);
      if (!seller?.[SETTING_OF[claim.kind]]) return 'off';
      const [customer] = await tx
        .select()
        .from(customers)
        .where(and(eq(customers.id, claim.customerId), eq(customers.merchantId, claim.merchantId)));
      if (!customer?.email) return 'no_email';
      const text = customerText(emailLocale(customer.locale));
      const design = await resolveHostedDesign(tx, seller.id);
      const content = await compose({ tx, seller, customer, text, design, portalUrl: `${config.publicUrl}${portalPath(customer.id)}` });
      if (!content) return 'not_due';
      const emailId = await sendEmail(tx, toEmailMessage(customer.email, claim.kind, content, { text, design, supportEmail: seller.supportEmail }));
      const claimed = await tx
        .insert(lifecycleEmails)
        .values({ ...claim, emailId })
        .onConflictDoNothing()
        .returning({ emailId: lifecycleEmails.emailId });
      // Another run wrote it between our check and our insert: this one's email is rolled back.
      if (claimed.length === 0) throw new WrittenMeanwhile();
      return 'written';
    });
  } catch (error) {
    if (error instanceof WrittenMeanwhile) return 'written_before';
    throw error;
  }
}

async function alreadyWritten(tx: Transaction, claim: LifecycleClaim) {
  const [row] = await tx
    .select({ emailId: lifecycleEmails.emailId })
    .from(lifecycleEmails)
    .where(and(eq(lifecycleEmails.merchantId, claim.merchantId), eq(lifecycleEmails.kind, claim.kind), eq(lifecycleEmails.subjectKey, claim.subjectKey)));
  return row !== undefined;
}

/** The text body (paragraphs, the action and its link, who to ask) and the HTML in the seller's design. */
export function toEmailMessage(
  to: string,
  kind: LifecycleEmailKind,
  content: LifecycleContent,
  options: { text: CustomerText; design: HostedDesign | null; supportEmail: string | null },
): EmailMessage {
  const { t } = options.text;
  const questions = options.supportEmail ? t('invoice.receiptQuestions', { email: options.supportEmail }) : null;
  const { action } = content;
  const text = [...content.paragraphs, ...(action ? [`${action.text}\n${action.url}`] : []), ...(questions ? [questions] : [])].join('\n\n');
  const paragraph = (words: string) => `<p>${words.split('\n').map(escapeHtml).join('<br>')}</p>`;
  const html = designedEmailHtml(
    options.design,
    [
      ...content.paragraphs.map(paragraph),
      ...(action ? [paragraph(action.text), emailButton(options.design, action.url, action.button)] : []),
      ...(questions ? [paragraph(questions)] : []),
    ].join(''),
    options.text.designWords(),
  );
  return { to, subject: content.subject, text, html, category: CATEGORY_OF[kind] };
}
