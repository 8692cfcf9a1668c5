import type { Db } from '../db/client';
import { config } from '../config';
import { REDACTED, emailContent, listRecentEmails, type OutboundEmail } from './send-email';

/** An outbox row as the dev mailbox shows it: a mail not sent yet (no SMTP) shows its link. */
export interface DevMailboxEmail extends Omit<OutboundEmail, 'sealedContent'> {
  /** Its link or code was removed from the outbox (the mail was sent over SMTP, or its sealed copy's retention passed). */
  redacted: boolean;
}

/**
 * The newest emails for the local dev mailbox (and tests), newest first. Without SMTP the dev
 * mailbox is where mail is delivered, so a mail still holding its sealed content is shown whole;
 * a mail sent over SMTP shows its stored, redacted body. Never in production: there the outbox
 * holds no readable token and nothing may show one.
 */
export async function listDevMailbox(db: Db, options: { to?: string; limit?: number } = {}): Promise<DevMailboxEmail[]> {
  if (config.isProduction) throw new Error('The dev mailbox is not available in production.');
  const emails = await listRecentEmails(db, options);
  return emails.map(({ sealedContent, ...email }) => {
    if (!sealedContent) return { ...email, redacted: email.textBody.includes(REDACTED) || Boolean(email.htmlBody?.includes(REDACTED)) };
    const content = emailContent({ ...email, sealedContent });
    return { ...email, textBody: content.text, htmlBody: content.html, redacted: false };
  });
}
