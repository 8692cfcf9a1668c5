import { pgTable, text, integer, jsonb, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';
import { customers } from './customers';

/**
 * One fact of usage. `externalId` is the producer's deduplication key (the API's `id`), unique
 * per merchant; `fingerprint` is a hash of the body that recorded it, so a repeat with another
 * body is told apart (409). `periodKey` names the metering period it counted in.
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    feature: text().notNull(),
    quantity: integer().notNull(),
    /** Spend of this record in minor units, counted against `limitAmount`. */
    amount: integer().notNull().default(0),
    externalId: text(),
    fingerprint: text().notNull(),
    periodKey: text().notNull(),
    properties: jsonb().notNull().$type<Record<string, unknown>>().default({}),
    timestamp: timestampTz().notNull(),
    reversedAt: timestampTz(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('usage_records_external_id_unique').on(t.merchantId, t.externalId).where(sql`${t.externalId} is not null`),
    index('usage_records_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('usage_records_customer_feature_idx').on(t.customerId, t.feature, t.timestamp),
  ],
);

/**
 * Running totals per customer, feature and metering period: the row that check-and-consume
 * locks, so concurrent consumers of one customer's feature take turns and never overdraw.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    feature: text().notNull(),
    periodKey: text().notNull(),
    periodStart: timestampTz(),
    periodEnd: timestampTz(),
    used: integer().notNull().default(0),
    spent: integer().notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.feature, t.periodKey] })],
);

/** Which credit grants a usage record drew from (a reversal gives exactly these back). */
export const creditDraws = pgTable(
  'credit_draws',
  {
    usageId: text()
      .notNull()
      .references(() => usageRecords.id),
    grantId: text().notNull(),
    units: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.usageId, t.grantId] })],
);

/**
 * Threshold events already sent: one row per customer, feature, event type and scope (the
 * period for `entitlement.exhausted`, the latest top-up grant for the credit events), so each
 * fires once per period and threshold however many requests cross it.
 */
export const usageThresholds = pgTable(
  'usage_thresholds',
  {
    customerId: text().notNull(),
    feature: text().notNull(),
    type: text().notNull(),
    scopeKey: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.feature, t.type, t.scopeKey] })],
);
