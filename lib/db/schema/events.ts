import { sql } from 'drizzle-orm';
import { pgTable, text, jsonb, index, bigint, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
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

/**
 * Each seller's last number of a kind of document (`invoice`): gapless, because the deferred
 * trigger that raises it (migration 0044_invoice_numbers) runs as the document's transaction
 * commits and rolls back with it. It is raised only while the seller's `event_sequences` row is
 * locked, so every committing transaction takes the two locks in one order.
 */
export const documentSequences = pgTable(
  'document_sequences',
  {
    merchantId: text().notNull(),
    kind: text().notNull().$type<'invoice' | 'credit_note'>(),
    lastNumber: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.kind] })],
);
