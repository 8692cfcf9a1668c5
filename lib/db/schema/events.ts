import { pgTable, text, jsonb, index } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const events = pgTable(
  'events',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    type: text().notNull(),
    data: jsonb().notNull().$type<{ object: Record<string, unknown>; previousAttributes?: Record<string, unknown>; test?: boolean }>(),
    createdAt: createdAt(),
  },
  (t) => [index('events_merchant_created_idx').on(t.merchantId, t.createdAt), index('events_merchant_type_idx').on(t.merchantId, t.type)],
);
