import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import type { PostalAddress } from './customers';

/** A tax rate as it was when a charge was planned (rates never change percentage or inclusiveness). */
export interface AppliedTaxRate {
  taxRateId: string;
  displayName: string;
  percentage: string;
  inclusive: boolean;
  country: string | null;
  jurisdiction: string | null;
}

/** One rate's tax on one line, or summed over a document's lines (lib/tax/calculate.ts). */
export interface TaxAmount extends AppliedTaxRate {
  /** What the rate was applied to, net of inclusive tax, in minor units. */
  taxableAmount: number;
  amount: number;
}

/** Who pays tax: `exempt` and `reverse` (the buyer accounts for it) are charged none. */
export type TaxExempt = 'none' | 'exempt' | 'reverse';

/** The tax a charge was planned with: the exemption and, per price (key `''`: no price), its lines' rates. */
export interface PinnedTax {
  exempt: TaxExempt;
  ratesByPrice: Record<string, AppliedTaxRate[]>;
}

/**
 * Who a document was issued by or to, as they were when it was numbered: a VAT invoice keeps
 * the details it was issued with whatever changes later (migration 0046_tax).
 */
export interface IssuedDetails {
  name: string | null;
  email: string | null;
  address: PostalAddress | null;
  taxId: string | null;
  /** The seller's invoice footer. */
  footer?: string | null;
}

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
