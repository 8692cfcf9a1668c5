import { pgTable, text, integer, primaryKey, index } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz } from './columns';

/** One row per (merchant, Idempotency-Key): the fingerprint of the first request and its final answer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: text().notNull(),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    bodyHash: text().notNull(),
    state: text().notNull().$type<'in_progress' | 'completed'>(),
    responseStatus: integer(),
    responseBody: text(),
    /** The executing request's lease (lib/http/idempotency.ts); `lockedAt` is its last renewal. */
    leaseId: text(),
    lockedAt: timestampTz().notNull(),
    createdAt: createdAt(),
    expiresAt: timestampTz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);
