import { pgTable, text, integer, jsonb, index, uniqueIndex, primaryKey, boolean } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';
import type { Metadata } from './catalog';

export interface PostalAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
}

export const customers = pgTable(
  'customers',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    email: text(),
    name: text(),
    externalId: text(),
    status: text().notNull().$type<'active' | 'archived'>().default('active'),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    /** The language the customer last used a hosted page in (e.g. "de"); their emails use it. */
    locale: text(),
    /** The billing address printed on their invoices; its country chooses tax rates by country. */
    address: jsonb().$type<PostalAddress>(),
    /** Their VAT or other tax id, printed on invoices (free text, e.g. `DE123456789`). */
    taxId: text(),
    /** `none`, `exempt` (no tax) or `reverse` (reverse charge: no tax, invoices say so). */
    taxExempt: text().notNull().$type<'none' | 'exempt' | 'reverse'>().default('none'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('customers_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('customers_merchant_email_idx').on(t.merchantId, sql`lower(${t.email})`),
    uniqueIndex('customers_merchant_external_id_unique').on(t.merchantId, t.externalId).where(sql`${t.externalId} is not null`),
  ],
);

export const customerCustomValues = pgTable(
  'customer_custom_values',
  {
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    key: text().notNull(),
    value: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.key] })],
);

/** Saved payment method references: a processor token plus display details, never a card number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    processorToken: text().notNull(),
    /** The processor, mode and connection (`platform` or a seller's `pcn_…`) that keep the token: a card is charged only there. */
    processor: text().notNull().default('sandbox').$type<'sandbox' | 'stripe'>(),
    processorMode: text().notNull().default('test').$type<'test' | 'live'>(),
    processorConnection: text().notNull().default('platform'),
    brand: text().notNull(),
    last4: text().notNull(),
    expMonth: integer().notNull(),
    expYear: integer().notNull(),
    isDefault: boolean().notNull().default(false),
    createdAt: createdAt(),
    detachedAt: timestampTz(),
  },
  (t) => [index('payment_methods_customer_idx').on(t.customerId)],
);
