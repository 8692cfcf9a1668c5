import { sql } from 'drizzle-orm';
import { pgTable, text, jsonb, index } from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
  },
  (t) => [
    index('events_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('events_merchant_type_idx').on(t.merchantId, t.type),
    // A customer's events for the console's customer page (lib/billing/customer-activity.ts).
    index('events_merchant_customer_idx').on(t.merchantId, sql`(${EVENT_CUSTOMER_ID})`, t.createdAt),
  ],
);
