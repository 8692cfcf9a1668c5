import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export type LifecycleEmailKind =
  | 'trial_ending'
  | 'subscription_canceled'
  | 'subscription_ended'
  | 'refund_issued'
  | 'renewal_failed'
  | 'card_expiring'
  | 'renewal_upcoming';

/**
 * The lifecycle emails written to customers (lib/lifecycle-emails), one row per email that may go
 * once: `subject_key` names what it is about (a subscription's trial, a refund, a card and its
 * expiry, a renewal's date). The row is inserted in the transaction that writes the email, so a
 * job run twice, or a sweep on two nodes, writes it once.
 */
export const lifecycleEmails = pgTable(
  'lifecycle_emails',
  {
    merchantId: text().notNull(),
    kind: text().notNull().$type<LifecycleEmailKind>(),
    subjectKey: text().notNull(),
    customerId: text().notNull(),
    /** The outbox row (outbound_emails) written with it. */
    emailId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.kind, t.subjectKey] })],
);
