import { pgTable, text, integer, boolean, bigint, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt } from './columns';

/**
 * One developer-API request (Developers → Logs), kept 30 days. Bodies only for failed requests,
 * redacted and capped before they are written; headers are never stored.
 */
export const apiRequestLogs = pgTable(
  'api_request_logs',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: text().notNull(),
    requestId: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    durationMs: integer().notNull(),
    apiKeyId: text(),
    idempotencyKey: text(),
    replayed: boolean().notNull().default(false),
    requestBody: text(),
    responseBody: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('api_request_logs_merchant_created_idx').on(t.merchantId, t.createdAt.desc()),
    index('api_request_logs_merchant_failed_idx').on(t.merchantId, t.createdAt.desc()).where(sql`${t.status} >= 400`),
    uniqueIndex('api_request_logs_request_id_unique').on(t.requestId),
    index('api_request_logs_created_idx').on(t.createdAt),
  ],
);
