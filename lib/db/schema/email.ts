import { pgTable, text, index } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz } from './columns';

/**
 * Transactional outbox of every email the service sends; also what `/dev/mailbox` shows locally.
 * The bodies never hold a live single-use token in clear: a mail that carries one (sign-in links,
 * invitations, resets) is stored with the token redacted, and its full text and HTML sealed in
 * `sealed_content` (secret-box) until it is sent. Rows are kept 30 days (docs/operations.md, "Retention").
 */
export const outboundEmails = pgTable(
  'outbound_emails',
  {
    id: text().primaryKey(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text(),
    /** What the mail is about, e.g. `member.login` — for the dev mailbox and for tests. */
    category: text().notNull(),
    createdAt: createdAt(),
    sentAt: timestampTz(),
    lastError: text(),
    /** The full text and HTML of a mail carrying a token, sealed until it is sent (then null). */
    sealedContent: text(),
  },
  (t) => [index('outbound_emails_to_idx').on(t.toAddress, t.createdAt), index('outbound_emails_created_idx').on(t.createdAt)],
);
