import { pgTable, text, integer, boolean, jsonb, index, uniqueIndex, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';
import type { Metadata } from './catalog';
import { prices } from './catalog';
import { customers, paymentMethods } from './customers';
import type { IssuedDetails, PinnedTax, TaxAmount, TaxExempt } from './tax';

/**
 * One line of a billing record (an invoice line), stored when the record is written because
 * what it is made of (the coupon's share, the credit taken) cannot be recomputed exactly later:
 * prices change, coupons end and the credit balance moves.
 *
 * `amount` is signed, in minor units: charges are positive, `discount` and `credit` negative;
 * the lines of a record add up to its `amount`.
 */
export interface BillingLineItem {
  kind: BillingLineKind;
  description: string;
  priceId: string | null;
  quantity: number;
  unitAmount: number;
  amount: number;
  /** Usage lines (and the credit lines that pay them): the feature and the period its usage was in. */
  feature?: string;
  periodStart?: string;
  periodEnd?: string;
  /** Usage lines of a decimal price: its exact unit amount. */
  unitAmountDecimal?: string;
  /** Usage lines of a tiered price: each tier reached (lib/usage/pricing.ts). */
  tiers?: BillingLineTier[];
  /** Charge and usage lines: the tax of the line per rate (lib/tax/calculate.ts), on the line net of its discount and credits. */
  taxes?: TaxAmount[];
  /** A `tax` line: its rate. */
  taxRateId?: string;
}

export interface BillingLineTier {
  tier: number;
  upTo: number | null;
  quantity: number;
  unitAmountDecimal: string;
  flatAmount: number;
  amountDecimal: string;
}

/**
 * `one_time`: a checkout of a one-time price or an ad hoc amount; `plan`: a subscription period;
 * `proration`: a mid-period upgrade; `usage`: a metered price's usage of an ended period;
 * `discount`: a coupon; `credit`: account credit or usage credits applied; `tax`: the tax of one
 * exclusive rate added on top (inclusive tax is inside the lines; both are in `taxes` per line).
 */
export const BILLING_LINE_KINDS = ['one_time', 'plan', 'proration', 'usage', 'discount', 'credit', 'tax'] as const;
export type BillingLineKind = (typeof BILLING_LINE_KINDS)[number];

export type PaymentLinkStoredStatus = 'active' | 'disabled' | 'archived' | 'completed';

/** A reusable, shareable URL (`/pay/{token}`) that sells one item: a catalog price or an ad hoc amount. */
export const paymentLinks = pgTable(
  'payment_links',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    token: text().notNull(),
    /** `expired` is not stored: it is derived from `expiresAt` whenever the link is read. */
    status: text().notNull().$type<PaymentLinkStoredStatus>(),
    priceId: text().references(() => prices.id),
    /** Metered prices the subscription a checkout of this link creates carries (a licensed Recurring `priceId` only). */
    items: jsonb().notNull().$type<{ priceId: string }[]>().default([]),
    name: text().notNull(),
    description: text(),
    unitAmount: integer().notNull(),
    currency: text().notNull(),
    quantity: integer().notNull(),
    /** Set (both) when the customer may choose the quantity on the hosted page, between these; `quantity` is where it starts. */
    quantityMinimum: integer(),
    quantityMaximum: integer(),
    singleUse: boolean().notNull().default(false),
    maxCompletions: integer(),
    /** Succeeded completions plus those whose payment is still `unknown` (a reserved slot). */
    completionCount: integer().notNull().default(0),
    expiresAt: timestampTz(),
    successUrl: text(),
    designId: text(),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_links_token_unique').on(t.token),
    index('payment_links_merchant_created_idx').on(t.merchantId, t.createdAt),
    check(
      'payment_links_adjustable_quantity',
      sql`(${t.quantityMinimum} is null and ${t.quantityMaximum} is null) or (${t.quantityMinimum} <= ${t.quantity} and ${t.quantity} <= ${t.quantityMaximum})`,
    ),
  ],
);

export const coupons = pgTable(
  'coupons',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    name: text(),
    /** Whole percent 1..100, or null when the coupon takes a fixed amount off. */
    percentOff: integer(),
    amountOff: integer(),
    currency: text(),
    duration: text().notNull().$type<'once' | 'repeating' | 'forever'>(),
    durationInMonths: integer(),
    redeemBy: timestampTz(),
    maxRedemptions: integer(),
    timesRedeemed: integer().notNull().default(0),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('coupons_merchant_created_idx').on(t.merchantId, t.createdAt)],
);

export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    couponId: text()
      .notNull()
      .references(() => coupons.id),
    code: text().notNull(),
    active: boolean().notNull().default(true),
    expiresAt: timestampTz(),
    maxRedemptions: integer(),
    timesRedeemed: integer().notNull().default(0),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    // Customers type codes in any case; one code means one thing per merchant.
    uniqueIndex('promotion_codes_merchant_code_unique').on(t.merchantId, sql`upper(${t.code})`),
    index('promotion_codes_merchant_created_idx').on(t.merchantId, t.createdAt),
  ],
);

export type CheckoutStatus = 'open' | 'paid' | 'failed' | 'expired';

export const checkouts = pgTable(
  'checkouts',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    status: text().notNull().$type<CheckoutStatus>(),
    paymentLinkId: text().references(() => paymentLinks.id),
    priceId: text().references(() => prices.id),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    description: text().notNull(),
    currency: text().notNull(),
    unitAmount: integer().notNull(),
    quantity: integer().notNull(),
    subtotal: integer().notNull(),
    discountAmount: integer().notNull().default(0),
    /** All tax of the checkout; `total` includes the exclusive part. */
    taxAmount: integer().notNull().default(0),
    /** The rates and exemption the checkout was charged with, pinned before the charge (lib/tax/calculate.ts). */
    tax: jsonb().$type<PinnedTax>(),
    total: integer().notNull(),
    promotionCodeId: text().references(() => promotionCodes.id),
    couponId: text().references(() => coupons.id),
    paymentId: text(),
    /** The subscription a checkout of a Recurring price started (its success page tells what happens next). */
    subscriptionId: text(),
    successUrl: text(),
    /** The hosted page's per-attempt key: a double-submitted form pays once. */
    attemptKey: text(),
    /** The seller's own key/value strings (lib/http/schemas.ts Metadata), copied to the checkout's payment. */
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('checkouts_merchant_created_idx').on(t.merchantId, t.createdAt),
    uniqueIndex('checkouts_attempt_key_unique').on(t.merchantId, t.attemptKey).where(sql`${t.attemptKey} is not null`),
  ],
);

export type PaymentStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'unknown' | 'needs_review' | 'partially_refunded' | 'refunded';

/** Why recovery handed a payment to a person, and from which state (docs/payments.md, "Needs review"). */
export interface PaymentReview {
  /** `pending`: its outcome was never recorded; `unknown` (or `requires_action`): recorded so and never settled. */
  from: 'pending' | 'unknown' | 'requires_action';
  reason: string;
  at: string;
}

export const payments = pgTable(
  'payments',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    checkoutId: text().references(() => checkouts.id),
    paymentMethodId: text().references(() => paymentMethods.id),
    status: text().notNull().$type<PaymentStatus>(),
    amount: integer().notNull(),
    amountRefunded: integer().notNull().default(0),
    currency: text().notNull(),
    description: text().notNull(),
    /** The processor the payment went to (docs/processors.md) and whether it moved real money (`live`) or not (`test`). */
    processor: text().notNull().default('sandbox').$type<'sandbox' | 'stripe'>(),
    processorMode: text().notNull().default('test').$type<'test' | 'live'>(),
    /** `platform` or the seller's processor connection it was made through (lib/db/schema/processors.ts): what refunds and recovery use. */
    processorConnection: text().notNull().default('platform'),
    /** The processor's id of the charge (Stripe: the PaymentIntent `pi_…`). */
    processorReference: text(),
    /** What phase 2 charges and a crash recovery re-charges (docs/payments.md, "Money moves"). */
    processorToken: text(),
    /** The processor's idempotency key, derived from our ids: a repeated charge is the same charge. */
    processorKey: text(),
    /**
     * The money move this charge belongs to and its plan, pinned in phase 1: `{ kind, plan }`
     * (lib/payments/money-moves.ts). Phase 3 and recovery apply exactly this plan.
     */
    intent: jsonb().$type<Record<string, unknown>>(),
    /** How many times recovery tried to finish or settle this payment and could not. */
    recoveryAttempts: integer().notNull().default(0),
    /** Set when the payment became `needs_review`. */
    review: jsonb().$type<PaymentReview>(),
    cardBrand: text(),
    cardLast4: text(),
    failureCode: text(),
    failureMessage: text(),
    /** Where the customer authenticates (3-D Secure) while the payment is `requires_action`; cleared once it settles. */
    nextActionUrl: text(),
    /** The seller's own key/value strings; a checkout's payment carries the checkout's. */
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    settledAt: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payments_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('payments_merchant_status_idx').on(t.merchantId, t.status),
    index('payments_customer_idx').on(t.customerId),
    uniqueIndex('payments_processor_key_unique').on(t.processorKey),
    index('payments_pending_idx').on(t.updatedAt).where(sql`${t.status} = 'pending'`),
    // The operator's overview: payments per day across sellers, and the reconciliation backlog.
    index('payments_created_idx').on(t.createdAt),
    index('payments_unknown_idx').on(t.createdAt).where(sql`${t.status} = 'unknown'`),
    index('payments_needs_review_idx').on(t.createdAt).where(sql`${t.status} = 'needs_review'`),
    // The sweep that cancels abandoned authentications (recovery.ts).
    index('payments_requires_action_idx').on(t.updatedAt).where(sql`${t.status} = 'requires_action'`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    paymentId: text()
      .notNull()
      .references(() => payments.id),
    status: text().notNull().$type<'requested' | 'succeeded' | 'failed'>(),
    amount: integer().notNull(),
    currency: text().notNull(),
    reason: text(),
    /** Always the payment's processor and mode; `processorReference` is the processor's refund id (Stripe: `re_…`). */
    processor: text().notNull().default('sandbox').$type<'sandbox' | 'stripe'>(),
    processorMode: text().notNull().default('test').$type<'test' | 'live'>(),
    processorReference: text(),
    failureMessage: text(),
    /** The API request's attempt (lib/http/idempotency.ts): a retry that takes it over finds this refund. */
    attemptKey: text(),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId),
    uniqueIndex('refunds_attempt_key_unique').on(t.merchantId, t.attemptKey).where(sql`${t.attemptKey} is not null`),
    index('refunds_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('refunds_requested_idx').on(t.updatedAt).where(sql`${t.status} = 'requested'`),
  ],
);

/**
 * The sandbox processor's own books (it stands in for a remote processor, whose records survive
 * our crashes): one row per idempotency key, however often the same operation is requested.
 */
export const sandboxProcessorOperations = pgTable('sandbox_processor_operations', {
  idempotencyKey: text().primaryKey(),
  kind: text().notNull().$type<'charge' | 'refund' | 'verification'>(),
  amount: integer().notNull(),
  currency: text().notNull(),
  status: text().notNull().$type<'succeeded' | 'failed' | 'requires_action'>(),
  reference: text().notNull(),
  declineCode: text(),
  message: text(),
  requests: integer().notNull().default(1),
  /** A charge that asks the customer to authenticate: the unguessable id of its page (/sandbox/authenticate/{id}). */
  actionId: text().unique(),
  /** Where that page sends the customer back: only this URL, never one from the request. */
  returnUrl: text(),
  createdAt: createdAt(),
});

export const billingRecords = pgTable(
  'billing_records',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    checkoutId: text().references(() => checkouts.id),
    paymentId: text().references(() => payments.id),
    status: text().notNull().$type<'open' | 'paid' | 'void' | 'uncollectible'>(),
    amount: integer().notNull(),
    currency: text().notNull(),
    description: text().notNull(),
    /** The coupon's discount taken off this record (already out of `amount`); 0 without one. */
    discountAmount: integer().notNull().default(0),
    couponId: text().references(() => coupons.id),
    /** Before the discount and credits: `amount` = `subtotal` - `discountAmount` - `creditsApplied`. */
    subtotal: integer().notNull().default(0),
    /** Subscription account credit taken off this record (already out of `amount`). */
    creditsApplied: integer().notNull().default(0),
    /** What was billed, as known when the record was written (lib/billing/line-items.ts builds it). */
    lineItems: jsonb().notNull().$type<BillingLineItem[]>().default([]),
    /** All tax on the record (inclusive and exclusive); `amount` includes the exclusive part. */
    taxAmount: integer().notNull().default(0),
    /** The tax lines: per rate, its taxable amount and tax, summed over the lines (lib/tax/calculate.ts). */
    taxes: jsonb().notNull().$type<TaxAmount[]>().default([]),
    /** The customer's tax status the charge was planned with (`reverse`: the invoice says the buyer accounts for VAT). */
    taxExempt: text().notNull().$type<TaxExempt>().default('none'),
    /** The seller's and the buyer's details as they were when the record was numbered (set with `number`). */
    sellerDetails: jsonb().$type<IssuedDetails>(),
    customerDetails: jsonb().$type<IssuedDetails>(),
    /** Set on a subscription's records: the period billed (a proration's is the period it falls in). */
    subscriptionId: text(),
    periodIndex: integer(),
    periodStart: timestampTz(),
    periodEnd: timestampTz(),
    /** Every payment that tried to collect this record, oldest first (`paymentId` is the latest). */
    attemptPaymentIds: text().array().notNull().default(sql`'{}'::text[]`),
    /**
     * The secret of the hosted invoice page and PDF (`/invoice/{token}`), not the id, which API
     * callers see: 244 random bits from two v4 UUIDs, made with the row (`newBillingRecordRow`,
     * Node's CSPRNG) so the writer needs no read back.
     */
    hostedToken: text().notNull(),
    /** The receipt email queued for this record once paid (set once: a retried job sends no second one). */
    receiptEmailId: text(),
    /**
     * The "confirm your payment" email queued while the record was open and its off-session charge
     * asked for authentication (set once: one such email per record, however many retries follow).
     */
    authenticationEmailId: text(),
    paidAt: timestampTz(),
    /**
     * The invoice number (`ACME-0042`): the seller's prefix and the next of its gapless sequence,
     * set by the deferred `billing_records_number` trigger as the writing transaction commits
     * (migration 0044_invoice_numbers; docs/invoices.md, "Invoice numbers"). Null only inside that
     * transaction.
     */
    number: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('billing_records_merchant_number_unique').on(t.merchantId, t.number),
    index('billing_records_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('billing_records_payment_idx').on(t.paymentId),
    index('billing_records_customer_idx').on(t.customerId, t.createdAt),
    index('billing_records_subscription_idx').on(t.subscriptionId, t.createdAt).where(sql`${t.subscriptionId} is not null`),
    uniqueIndex('billing_records_hosted_token_unique').on(t.hostedToken),
  ],
);
