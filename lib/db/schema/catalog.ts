import { pgTable, text, boolean, integer, jsonb, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, updatedAt } from './columns';

export type Metadata = Record<string, string>;

/** One tier of a metered price, as stored (absent amounts are null). */
export interface PriceTierRow {
  upTo: number | null;
  unitAmount: number | null;
  unitAmountDecimal: string | null;
  flatAmount: number | null;
}

export const products = pgTable(
  'products',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    name: text().notNull(),
    description: text(),
    active: boolean().notNull().default(true),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('products_merchant_created_idx').on(t.merchantId, t.createdAt)],
);

export const prices = pgTable(
  'prices',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    productId: text()
      .notNull()
      .references(() => products.id),
    type: text().notNull().$type<'OneTime' | 'Recurring'>(),
    amount: integer().notNull(),
    currency: text().notNull(),
    interval: text().$type<'day' | 'week' | 'month' | 'year'>(),
    intervalCount: integer(),
    trialDays: integer(),
    /** `licensed`: `amount` per period, in advance; `metered`: `feature`'s usage, in arrears (lib/usage/pricing.ts). */
    usageType: text().notNull().$type<'licensed' | 'metered'>().default('licensed'),
    feature: text(),
    aggregation: text().$type<'sum' | 'max' | 'last' | 'unique'>(),
    aggregationProperty: text(),
    /** Decimal minor units as text (up to 12 decimals): never a float. */
    unitAmountDecimal: text(),
    tiers: jsonb().$type<PriceTierRow[]>(),
    tiersMode: text().$type<'graduated' | 'volume'>(),
    packageSize: integer(),
    /** The tax rates of this price's lines; empty: the seller's default rates (docs/invoices.md, "Tax"). */
    taxRateIds: text().array().notNull().default(sql`'{}'::text[]`),
    active: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('prices_merchant_created_idx').on(t.merchantId, t.createdAt), index('prices_product_idx').on(t.productId)],
);
