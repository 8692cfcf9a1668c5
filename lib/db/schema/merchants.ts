import { bigint, boolean, pgTable, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';

export const merchants = pgTable(
  'merchants',
  {
    id: text().primaryKey(),
    email: text().notNull(),
    name: text().notNull(),
    accountType: text().notNull().$type<'Business' | 'Individual'>(),
    status: text().notNull().$type<'active' | 'suspended'>().default('active'),
    /** The most a Support member may refund at once, in minor units of its currency; null: Support cannot refund. */
    supportRefundLimit: bigint({ mode: 'number' }),
    supportRefundLimitCurrency: text(),
    /** Where customers get help (receipts, invoices, the hosted pages). */
    supportEmail: text(),
    supportUrl: text(),
    /** The business address printed on receipts and invoices; country is ISO 3166-1 alpha-2. */
    addressLine1: text(),
    addressLine2: text(),
    addressCity: text(),
    addressRegion: text(),
    addressPostalCode: text(),
    addressCountry: text(),
    /** The registered name printed on invoices when it differs from the name customers know. */
    legalName: text(),
    /** The seller's VAT or other tax id, printed on invoices. */
    taxId: text(),
    /** A note printed at the foot of every invoice (registration details, payment terms). */
    invoiceFooter: text(),
    /**
     * What invoice numbers start with (`ACME` → `ACME-0001`); null: the business name's letters
     * and digits, upper case, at most 12 (docs/invoices.md, "Invoice numbers").
     */
    invoicePrefix: text(),
    /** The tax rates of prices that name none (docs/invoices.md, "Tax"); a rate with a country applies only to customers there. */
    defaultTaxRateIds: text().array().notNull().default(sql`'{}'::text[]`),
    /** IANA time zone the seller console shows dates in. */
    timeZone: text().notNull().default('UTC'),
    /** The hosted checkout asks for the customer's billing address and (optionally) tax id. */
    collectBillingAddress: boolean().notNull().default(false),
    /** Email the customer a receipt (linking the hosted invoice) after each successful payment. */
    sendReceipts: boolean().notNull().default(true),
    /** The lifecycle emails the customers get (docs/invoices.md, "Lifecycle emails"), each one on by default. */
    sendTrialEndingEmails: boolean().notNull().default(true),
    sendCancellationEmails: boolean().notNull().default(true),
    sendRefundEmails: boolean().notNull().default(true),
    sendPaymentFailedEmails: boolean().notNull().default(true),
    sendCardExpiringEmails: boolean().notNull().default(true),
    sendRenewalReminderEmails: boolean().notNull().default(true),
    /** Set by an Owner: every member must sign in with a second factor. */
    requireTwoFactor: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('merchants_email_unique').on(sql`lower(${t.email})`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(),
    merchantId: text()
      .notNull()
      .references(() => merchants.id),
    name: text().notNull(),
    scopes: text().array().notNull(),
    prefix: text().notNull(),
    secretHash: text().notNull(),
    /**
     * The API version current when the key was made (lib/http/api-versions.ts): requests without
     * `Paybase-Version` are answered in it. The default pins keys made before versions existed
     * to the first version; new keys are given the current one.
     */
    apiVersion: text().notNull().default('2026-11-27'),
    createdAt: createdAt(),
    lastUsedAt: timestampTz(),
    revokedAt: timestampTz(),
    /**
     * The seller user who created the key: its role bounds the key's scopes on every request
     * (docs/auth.md, "API keys and roles"). Null for keys made by no one (the seeded demo key).
     * No foreign key: a key whose creator is gone must stop, not lose its bound (removal
     * revokes the member's keys; the check refuses any that escaped it).
     */
    createdByUserId: text(),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_unique').on(t.secretHash),
    index('api_keys_merchant_idx').on(t.merchantId),
    index('api_keys_created_by_idx').on(t.createdByUserId).where(sql`${t.createdByUserId} is not null`),
  ],
);

export const admins = pgTable('admins', {
  id: text().primaryKey(),
  name: text().notNull().unique(),
  passwordHash: text().notNull(),
  createdAt: createdAt(),
});
