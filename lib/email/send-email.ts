import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outboundEmails } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { enqueueJob } from '../jobs/enqueue';
import { log } from '../log';
import { decryptSecret, encryptSecret } from '../secret-box';
import { storableText } from '../stored-text';
import { mailFrom, smtpTransport } from './transport';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  category: string;
  /**
   * The single-use tokens the mail carries (a sign-in link's token, an invitation code): the
   * outbox keeps them only sealed, until the mail is sent, and stores the bodies with them redacted.
   */
  secrets?: readonly string[];
}

/** What replaces a token in the stored bodies. */
export const REDACTED = '[redacted]';

/**
 * Queues an email in the caller's transaction (outbox): it is sent by the `send-email` job only
 * if the change that caused it commits, and retried by the worker if SMTP fails.
 */
export async function sendEmail(tx: Db, message: EmailMessage): Promise<string> {
  const { id } = await writeEmail(tx, message);
  await enqueueJob(tx, 'send-email', { emailId: id }, { maxAttempts: 10 });
  return id;
}

export type OutboundEmail = typeof outboundEmails.$inferSelect;

/**
 * The outbox row alone, for a job that delivers the email itself once its transaction commits
 * (`deliverEmail`) and is retried until it has: a receipt, one per checkout, so a second job per
 * email would cost more than writing the receipt (bench/RESULTS.md).
 */
export async function writeEmail(tx: Db, message: EmailMessage): Promise<OutboundEmail> {
  const id = newId('email');
  const secrets = (message.secrets ?? []).filter((secret) => secret.length > 0);
  const email: OutboundEmail = {
    id,
    toAddress: message.to.toLowerCase(),
    subject: message.subject,
    textBody: redact(message.text, secrets),
    htmlBody: message.html === undefined ? null : redact(message.html, secrets),
    category: message.category,
    createdAt: now(),
    sentAt: null,
    lastError: null,
    sealedContent: secrets.length > 0 ? encryptSecret(JSON.stringify({ text: message.text, html: message.html ?? null }), sealContext(id)) : null,
  };
  await tx.insert(outboundEmails).values(email);
  return email;
}

// The row's id is bound to the ciphertext, so sealed content copied onto another row does not open.
const sealContext = (emailId: string) => `outbound-email:${emailId}`;

function redact(body: string, secrets: readonly string[]): string {
  let redacted = body;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) redacted = redacted.replaceAll(form, REDACTED);
  }
  return redacted;
}

/** The text and HTML to send: the sealed originals while the mail still carries its token, else the stored bodies. */
export function emailContent(email: OutboundEmail): { text: string; html: string | null } {
  if (!email.sealedContent) return { text: email.textBody, html: email.htmlBody };
  return JSON.parse(decryptSecret(email.sealedContent, sealContext(email.id))) as { text: string; html: string | null };
}

/**
 * Delivers a queued email over SMTP, unless it was delivered already (an email just written is
 * passed as written, an id is read); throws when SMTP fails, so the job that called it runs
 * again with the sealed content still there. Once sent, the sealed content is dropped: the row
 * keeps only the redacted bodies. Without SMTP_URL the mail stays in the outbox and is marked
 * sent so nothing retries it; outside production the dev mailbox is then its inbox, so the
 * sealed content stays for it to show (until the retention job clears it), in production it is
 * dropped at once (nobody could read it).
 */
export async function deliverEmail(db: Db, emailOrId: OutboundEmail | string): Promise<void> {
  const email = typeof emailOrId === 'string' ? (await db.select().from(outboundEmails).where(eq(outboundEmails.id, emailOrId)))[0] : emailOrId;
  if (!email || email.sentAt) return;
  const emailId = email.id;
  const transport = smtpTransport();
  if (!transport) {
    log.info({ emailId, category: email.category }, 'no SMTP_URL: email kept for the dev mailbox');
    await markEmailSent(db, emailId, { keepSealedContent: !config.isProduction });
    return;
  }
  try {
    const content = emailContent(email);
    await transport.sendMail({ from: mailFrom(), to: email.toAddress, subject: email.subject, text: content.text, html: content.html ?? undefined });
    await markEmailSent(db, emailId, { keepSealedContent: false });
  } catch (error) {
    // The SMTP server's answer is text from outside (docs/operations.md, "Text kept from outside"),
    // and graphile-worker stores the job's error too. The sealed content stays for the retry.
    const reason = storableText(error instanceof Error ? error.message : String(error), 2_000);
    await db.update(outboundEmails).set({ lastError: reason }).where(eq(outboundEmails.id, emailId));
    throw new Error(reason, { cause: error });
  }
}

async function markEmailSent(db: Db, emailId: string, options: { keepSealedContent: boolean }) {
  await db
    .update(outboundEmails)
    .set({ sentAt: now(), lastError: null, ...(options.keepSealedContent ? {} : { sealedContent: null }) })
    .where(eq(outboundEmails.id, emailId));
}

/** Newest first, as stored (tokens redacted); the dev mailbox opens them with `listDevMailbox`. */
export async function listRecentEmails(db: Db, options: { to?: string; limit?: number } = {}) {
  return db
    .select()
    .from(outboundEmails)
    .where(options.to ? eq(outboundEmails.toAddress, options.to.toLowerCase()) : undefined)
    .orderBy(desc(outboundEmails.createdAt), desc(outboundEmails.id))
    .limit(options.limit ?? 100);
}

/** A sealed copy outlives every token a mail can carry: the longest-lived, an invitation, works 7 days. */
export const SEALED_CONTENT_RETENTION_DAYS = 7;
/** The outbox is not an archive: a mail's row (address, subject, redacted body) is kept 30 days. */
export const OUTBOX_RETENTION_DAYS = 30;

/**
 * The outbox's retention (docs/operations.md, "Retention"): sealed copies of mails older than 7
 * days are dropped (a mail whose sending failed for a week, or a dev-mailbox copy), and rows older
 * than 30 days are deleted, 10,000 per statement.
 */
export async function purgeEmailOutbox(db: Db): Promise<{ unsealed: number; deleted: number }> {
  const at = now().getTime();
  const unsealed = await db
    .update(outboundEmails)
    .set({ sealedContent: null })
    .where(and(isNotNull(outboundEmails.sealedContent), lt(outboundEmails.createdAt, new Date(at - SEALED_CONTENT_RETENTION_DAYS * 86_400_000))))
    .returning({ id: outboundEmails.id });
  const cutoff = new Date(at - OUTBOX_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from outbound_emails where id in (select id from outbound_emails where created_at < ${cutoff} limit 10000)`);
    deleted += result.rowCount ?? 0;
    if (!result.rowCount) return { unsealed: unsealed.length, deleted };
  }
}
