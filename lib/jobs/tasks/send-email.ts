import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../db/client';
import { findEmail, markEmailSent } from '../../email/send-email';
import { mailFrom, smtpTransport } from '../../email/transport';

const Payload = z.object({ emailId: z.string() });

/**
 * Delivers one queued email over SMTP. Without SMTP_URL the mail stays in the outbox, where
 * the dev mailbox shows it, and is marked sent so the queue does not retry it.
 */
export const sendEmailTask: Task = async (payload, helpers) => {
  const { emailId } = Payload.parse(payload);
  const db = getDb();
  const email = await findEmail(db, emailId);
  if (!email || email.sentAt) return;
  const transport = smtpTransport();
  if (!transport) {
    helpers.logger.info(`no SMTP_URL: email ${emailId} (${email.category}) kept for the dev mailbox`);
    await markEmailSent(db, emailId);
    return;
  }
  try {
    await transport.sendMail({ from: mailFrom(), to: email.toAddress, subject: email.subject, text: email.textBody, html: email.htmlBody ?? undefined });
    await markEmailSent(db, emailId);
  } catch (error) {
    await markEmailSent(db, emailId, error instanceof Error ? error.message : String(error));
    throw error;
  }
};
