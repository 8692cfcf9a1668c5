import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

/** A seller's tax rate (docs/invoices.md, "Tax rates"): what its invoices charge as tax at `percentage`. */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    displayName: text().notNull(),
    description: text(),
    /** Exact decimal string, 0 ≤ p < 100, at most 4 decimals ("20", "8.875"); never changes once created. */
    percentage: text().notNull(),
    /** Included in the prices it applies to (VAT-style), or added on top (sales-tax-style); never changes. */
    inclusive: boolean().notNull(),
    /** ISO 3166-1 alpha-2; null: any country. */
    country: text(),
    /** A state, province or region within the country (free text, e.g. `CA`), shown on invoices. */
    jurisdiction: text(),
    active: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('tax_rates_merchant_created_idx').on(t.merchantId, t.createdAt)],
);
