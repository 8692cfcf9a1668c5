import { sql } from 'drizzle-orm';
import { pgTable, text, jsonb, index, bigint, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/** The customer an event is about: its object's customerId, or the customer itself for customer.* events. */
export const EVENT_CUSTOMER_ID = sql.raw(`coalesce(data->'object'->>'customerId', case when type like 'customer.%' then data->'object'->>'id' end)`);

export const events = pgTable(
  'events',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    type: text().notNull(),
    data: jsonb().notNull().$type<{ object: Record<string, unknown>; previousAttributes?: Record<string, unknown>; test?: boolean }>(),
    /**
     * The seller's event counter (docs/webhooks.md, "Ordering"): only grows per seller, in commit
     * order; never shared by two of the seller's events. Null only inside the recording
     * transaction: the `events_number` trigger sets it as the transaction commits.
     */
    sequence: bigint({ mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('events_merchant_sequence_unique').on(t.merchantId, t.sequence),
    index('events_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('events_merchant_type_idx').on(t.merchantId, t.type),
    // A customer's events for the console's customer page (lib/billing/customer-activity.ts).
    index('events_merchant_customer_idx').on(t.merchantId, sql`(${EVENT_CUSTOMER_ID})`, t.createdAt),
  ],
);

/**
 * Each seller's last event `sequence`. The deferred `events_number` trigger (migration
 * 0041_event_sequence) raises its seller's row as the event's transaction commits, after every
 * other write of it: the row lock makes one seller's committing transactions take turns for that
 * last moment only, so sequences follow commit order, are never handed out twice, and the lock is
 * never held while the transaction waits for another row (no deadlock).
 */
export const eventSequences = pgTable('event_sequences', {
  merchantId: text().primaryKey(),
  lastSequence: bigint({ mode: 'number' }).notNull(),
});
