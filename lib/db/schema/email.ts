import { pgTable, text, index } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz } from './columns';

/** Transactional outbox of every email the service sends; also what `/dev/mailbox` shows locally. */
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
  },
  (t) => [index('outbound_emails_to_idx').on(t.toAddress, t.createdAt)],
);
