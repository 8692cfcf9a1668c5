import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outboundEmails } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { enqueueJob } from '../jobs/enqueue';
import { log } from '../log';
import { storableText } from '../stored-text';
import { mailFrom, smtpTransport } from './transport';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  category: string;
}

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
  const email: OutboundEmail = {
    id: newId('email'),
    toAddress: message.to.toLowerCase(),
    subject: message.subject,
    textBody: message.text,
    htmlBody: message.html ?? null,
    category: message.category,
    createdAt: now(),
    sentAt: null,
    lastError: null,
  };
  await tx.insert(outboundEmails).values(email);
  return email;
}

/**
 * Delivers a queued email over SMTP, unless it was delivered already (an email just written is
 * passed as written, an id is read); throws when SMTP fails, so the job that called it runs
 * again. Without SMTP_URL the mail stays in the outbox, where the dev mailbox shows it, and is
 * marked sent so nothing retries it.
 */
export async function deliverEmail(db: Db, emailOrId: OutboundEmail | string): Promise<void> {
  const email = typeof emailOrId === 'string' ? (await db.select().from(outboundEmails).where(eq(outboundEmails.id, emailOrId)))[0] : emailOrId;
  if (!email || email.sentAt) return;
  const emailId = email.id;
  const transport = smtpTransport();
  if (!transport) {
    log.info({ emailId, category: email.category }, 'no SMTP_URL: email kept for the dev mailbox');
    await markEmailSent(db, emailId);
    return;
  }
  try {
    await transport.sendMail({ from: mailFrom(), to: email.toAddress, subject: email.subject, text: email.textBody, html: email.htmlBody ?? undefined });
    await markEmailSent(db, emailId);
  } catch (error) {
    // The SMTP server's answer is text from outside (docs/operations.md, "Text kept from outside"),
    // and graphile-worker stores the job's error too.
    const reason = storableText(error instanceof Error ? error.message : String(error), 2_000);
    await markEmailSent(db, emailId, reason);
    throw new Error(reason, { cause: error });
  }
}

async function markEmailSent(db: Db, emailId: string, error?: string) {
  await db
    .update(outboundEmails)
    .set(error ? { lastError: error } : { sentAt: now(), lastError: null })
    .where(eq(outboundEmails.id, emailId));
}

/** Newest first; for the local dev mailbox and tests. */
export async function listRecentEmails(db: Db, options: { to?: string; limit?: number } = {}) {
  return db
    .select()
    .from(outboundEmails)
    .where(options.to ? eq(outboundEmails.toAddress, options.to.toLowerCase()) : undefined)
    .orderBy(desc(outboundEmails.createdAt), desc(outboundEmails.id))
    .limit(options.limit ?? 100);
}
