import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestampTz, updatedAt } from './columns';
import { payments } from './payments';

/** Stripe's dispute statuses (docs.stripe.com/api/disputes/object#dispute_object-status); `warning_*` are inquiries. */
export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
  'appeal_needs_response',
  'appeal_under_review',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * The evidence a seller can give as text, by our names (Stripe's are the same in snake_case:
 * `productDescription` is `product_description`). Stripe's file fields (receipts, documents
 * uploaded through its Files API) are not taken.
 */
export const DISPUTE_EVIDENCE_FIELDS = [
  'productDescription',
  'customerName',
  'customerEmailAddress',
  'customerPurchaseIp',
  'billingAddress',
  'accessActivityLog',
  'serviceDate',
  'shippingAddress',
  'shippingCarrier',
  'shippingDate',
  'shippingTrackingNumber',
  'refundPolicyDisclosure',
  'refundRefusalExplanation',
  'cancellationPolicyDisclosure',
  'cancellationRebuttal',
  'duplicateChargeExplanation',
  'duplicateChargeId',
  'uncategorizedText',
] as const;
export type DisputeEvidenceField = (typeof DISPUTE_EVIDENCE_FIELDS)[number];

/** The evidence texts a dispute holds at the processor, by our field names. */
export type DisputeEvidenceText = Partial<Record<DisputeEvidenceField, string>>;

/**
 * A customer's dispute (chargeback or inquiry) of a payment, as the processor reports it
 * (docs/processors.md, "Disputes"): made and updated from its webhooks, always from the
 * dispute's current state read back from the processor. Amounts are ours (ISO minor units).
 */
export const disputes = pgTable(
  'disputes',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    paymentId: text()
      .notNull()
      .references(() => payments.id),
    amount: integer().notNull(),
    currency: text().notNull(),
    /** The card network's reason as the processor names it (`fraudulent`, `product_not_received`, …). */
    reason: text().notNull(),
    status: text().notNull().$type<DisputeStatus>(),
    /** The last moment evidence is taken; null when the issuer allows no response. */
    evidenceDueBy: timestampTz(),
    evidence: jsonb().notNull().$type<DisputeEvidenceText>().default({}),
    evidenceSubmissionCount: integer().notNull().default(0),
    /** The processor took the disputed amount (and its fee) from the balance; `fundsReinstated`: it gave it back. */
    fundsWithdrawn: boolean().notNull().default(false),
    fundsReinstated: boolean().notNull().default(false),
    processor: text().notNull().$type<'stripe'>(),
    processorMode: text().notNull().$type<'test' | 'live'>(),
    /** The processor's id (Stripe: `dp_…`). */
    processorReference: text().notNull(),
    /** When Paybase saw it closed (won, lost, an inquiry closed, prevented); null while open or appealed. */
    closedAt: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('disputes_processor_reference_unique').on(t.processor, t.processorReference),
    index('disputes_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('disputes_payment_idx').on(t.paymentId),
    // The overview's lost disputes per day.
    index('disputes_merchant_closed_idx').on(t.merchantId, t.closedAt),
  ],
);
