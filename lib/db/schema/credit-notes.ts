import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { customers } from './customers';
import { billingRecords, refunds } from './payments';
import type { IssuedDetails, TaxAmount } from './tax';

/** One line of a credit note: what it gives back, in minor units (positive: the amount credited). */
export interface CreditNoteLine {
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
}

/**
 * A credit note: the document a refund issues against the invoice it reduces (docs/invoices.md,
 * "Credit notes"), with its own number from the seller's credit-note sequence.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    billingRecordId: text()
      .notNull()
      .references(() => billingRecords.id),
    refundId: text()
      .notNull()
      .references(() => refunds.id),
    /**
     * `ACME-CN-0001`: set by the deferred `credit_notes_number` trigger as the refund's outcome
     * commits (as invoice numbers are, migration 0044_invoice_numbers). Null only inside that
     * transaction.
     */
    number: text(),
    currency: text().notNull(),
    amount: integer().notNull(),
    lineItems: jsonb().notNull().$type<CreditNoteLine[]>(),
    /** The invoice's tax given back, per rate, in proportion to the amount refunded (included in `amount`). */
    taxAmount: integer().notNull().default(0),
    taxes: jsonb().notNull().$type<TaxAmount[]>().default([]),
    /** As on billing records: the parties' details when the credit note was numbered. */
    sellerDetails: jsonb().$type<IssuedDetails>(),
    customerDetails: jsonb().$type<IssuedDetails>(),
    reason: text(),
    /**
     * The secret of the hosted credit note page and PDF (`/credit-note/{token}`), as a billing
     * record's `hostedToken`: 244 random bits made with the row (`newCreditNoteRow`).
     */
    hostedToken: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('credit_notes_merchant_number_unique').on(t.merchantId, t.number),
    uniqueIndex('credit_notes_refund_unique').on(t.refundId),
    index('credit_notes_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('credit_notes_billing_record_idx').on(t.billingRecordId),
    uniqueIndex('credit_notes_hosted_token_unique').on(t.hostedToken),
  ],
);
