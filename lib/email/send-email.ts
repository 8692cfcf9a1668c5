import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outboundEmails } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { enqueueJob } from '../jobs/enqueue';

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
  const id = newId('email');
  await tx.insert(outboundEmails).values({
    id,
    toAddress: message.to.toLowerCase(),
    subject: message.subject,
    textBody: message.text,
    htmlBody: message.html ?? null,
    category: message.category,
    createdAt: now(),
  });
  await enqueueJob(tx, 'send-email', { emailId: id }, { maxAttempts: 10 });
  return id;
}

export async function findEmail(db: Db, emailId: string) {
  const [row] = await db.select().from(outboundEmails).where(eq(outboundEmails.id, emailId));
  return row;
}

export async function markEmailSent(db: Db, emailId: string, error?: string) {
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
