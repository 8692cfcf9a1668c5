import { pgTable, text, integer, boolean, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';
import type { Metadata } from './catalog';
import { prices } from './catalog';
import { customers, paymentMethods } from './customers';
import { billingRecords, payments } from './payments';

/** A coupon as redeemed on a subscription: a snapshot, so later reads need no join. */
export interface SubscriptionDiscount {
  couponId: string;
  promotionCodeId: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  /** Start of the first discounted period. */
  start: string;
  /** Periods starting at or after this instant are not discounted; null for `forever`. */
  end: string | null;
}

export type TestClockStatus = 'ready' | 'advancing';

/** A sandbox clock a merchant moves by hand; subscriptions of attached customers live on its time. */
export const testClocks = pgTable(
  'test_clocks',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    name: text(),
    /** Where the clock is, or is advancing to: the time its subscriptions live on. */
    frozenTime: timestampTz().notNull(),
    /** `advancing` from an Advance until every action due by `frozenTime` has run. */
    status: text().notNull().$type<TestClockStatus>().default('ready'),
    /** While advancing: renewed by whoever runs the catching-up; once past, the worker takes it over. */
    advanceLeaseUntil: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('test_clocks_merchant_created_idx').on(t.merchantId, t.createdAt),
    // The worker's search for advances nobody is finishing.
    index('test_clocks_advancing_idx').on(t.advanceLeaseUntil).where(sql`${t.status} = 'advancing'`),
  ],
);

/** A customer attached to a test clock (at most one clock per customer). */
export const testClockCustomers = pgTable('test_clock_customers', {
  customerId: text()
    .primaryKey()
    .references(() => customers.id),
  testClockId: text()
    .notNull()
    .references(() => testClocks.id),
  merchantId: text().notNull(),
  createdAt: createdAt(),
});

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'ended';

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    priceId: text()
      .notNull()
      .references(() => prices.id),
    paymentMethodId: text().references(() => paymentMethods.id),
    /** A one-off processor token (recurring checkout without a saved method). */
    paymentToken: text(),
    status: text().notNull().$type<SubscriptionStatus>(),
    /** Bumped by every change (DESIGN 5); Command.expectedVersion must equal it. */
    version: integer().notNull().default(1),
    /** Start of period 0; every boundary is computed from it (lib/subscriptions/periods.ts). */
    billingAnchor: timestampTz().notNull(),
    /** -1 while trialing (the trial runs until the anchor). */
    currentPeriodIndex: integer().notNull(),
    currentPeriodStart: timestampTz().notNull(),
    currentPeriodEnd: timestampTz().notNull(),
    trialEnd: timestampTz(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    canceledAt: timestampTz(),
    endedAt: timestampTz(),
    /** Collection paused: renewals advance the period without charging or granting. */
    pausedAt: timestampTz(),
    /** Account credit (minor units) from downgrades, taken off the next charges. */
    creditBalance: integer().notNull().default(0),
    /** The coupon redeemed at checkout and the window of periods it discounts (lib/subscriptions/discounts.ts). */
    discount: jsonb().$type<SubscriptionDiscount>(),
    testClockId: text().references(() => testClocks.id),
    /**
     * A renewal of a subscription with metered items, drafted at the period boundary (the price in
     * advance, its discount) and charged with the ended period's usage at `usageBillingDueAt`
     * (lib/subscriptions/renewal-draft.ts); null otherwise. An ended subscription keeps the draft it
     * ended with until its last usage is billed (only the draft's usage span is then billed).
     */
    renewalDraft: jsonb().$type<Record<string, unknown>>(),
    /**
     * When usage is next billed outside a plain renewal: the drafted renewal (period end + the
     * grace window), an ended subscription's last usage, or a usage threshold reached (now).
     */
    usageBillingDueAt: timestampTz(),
    /** Bill the period's usage so far as soon as its unbilled amount reaches this (minor units); null: only at period end. */
    usageThresholdAmount: integer(),
    /** The earliest moment something is due (renewal, retry, scheduled change); null when nothing is. */
    nextActionAt: timestampTz(),
    metadata: jsonb().notNull().$type<Metadata>().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('subscriptions_customer_idx').on(t.customerId),
    index('subscriptions_next_action_idx').on(t.nextActionAt).where(sql`${t.nextActionAt} is not null`),
    // What an Advance runs: the subscriptions of one test clock by their next action.
    index('subscriptions_test_clock_idx').on(t.testClockId, t.nextActionAt).where(sql`${t.testClockId} is not null`),
  ],
);

/**
 * The metered prices a subscription bills in arrears at each period end (lib/subscriptions/items.ts),
 * its own `priceId` included when that price is metered. One item per price and per feature.
 */
export const subscriptionItems = pgTable(
  'subscription_items',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    priceId: text()
      .notNull()
      .references(() => prices.id),
    /** On the subscription's clock: the item bills usage from `createdAt` until `removedAt`. */
    createdAt: createdAt(),
    removedAt: timestampTz(),
  },
  (t) => [uniqueIndex('subscription_items_live_price_unique').on(t.subscriptionId, t.priceId).where(sql`${t.removedAt} is null`)],
);

/**
 * Links a subscription to its billing records. A period's record is unique per
 * (subscription, period index): a renewal can be written, and so charged, only once.
 */
export const subscriptionBillingRecords = pgTable(
  'subscription_billing_records',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    billingRecordId: text()
      .notNull()
      .references(() => billingRecords.id),
    /** `usage`: usage billed on its own (a threshold reached, or an ended subscription's last usage). */
    kind: text().notNull().$type<'period' | 'proration' | 'usage'>(),
    periodIndex: integer(),
    /** Charge attempts so far (1 after the first). */
    attempts: integer().notNull().default(0),
    lastPaymentId: text().references(() => payments.id),
    /** When the dunning schedule tries again; null when paid, closed or waiting on an unknown outcome. */
    nextAttemptAt: timestampTz(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscription_billing_records_period_unique').on(t.subscriptionId, t.periodIndex).where(sql`${t.kind} = 'period'`),
    uniqueIndex('subscription_billing_records_record_unique').on(t.billingRecordId),
    index('subscription_billing_records_sub_idx').on(t.subscriptionId, t.createdAt),
  ],
);

export type SubscriptionChangeStatus = 'applied' | 'scheduled' | 'canceled';

export type SubscriptionCommandType =
  | 'ChangePrice'
  | 'CancelAtPeriodEnd'
  | 'Reactivate'
  | 'Pause'
  | 'Resume'
  | 'ChangePaymentMethod'
  | 'AddItem'
  | 'RemoveItem'
  | 'SetUsageThreshold'
  | 'Cancel'
  | 'Create'
  | 'Renew'
  | 'End';

export const subscriptionChanges = pgTable(
  'subscription_changes',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    type: text().notNull().$type<SubscriptionCommandType>(),
    status: text().notNull().$type<SubscriptionChangeStatus>(),
    fromPriceId: text(),
    toPriceId: text(),
    /** `api_key:key_…`, `portal:cus_…`, `console:mer_…` or `system`. */
    actor: text().notNull(),
    reason: text(),
    effectiveAt: timestampTz().notNull(),
    /** The subscription version this change produced (null while scheduled). */
    version: integer(),
    /** Net proration (minor units): positive charged, negative credited. */
    prorationAmount: integer(),
    createdAt: createdAt(),
    appliedAt: timestampTz(),
  },
  (t) => [
    index('subscription_changes_sub_idx').on(t.subscriptionId, t.createdAt),
    index('subscription_changes_scheduled_idx').on(t.subscriptionId, t.effectiveAt).where(sql`${t.status} = 'scheduled'`),
  ],
);

/**
 * Credits of one feature for one customer: granted at each paid period of a price whose policy
 * has `creditGrantAmount` (unique per subscription, period and feature), by a one-time purchase
 * of such a price (unique per checkout and feature), or by hand. Usage draws `remaining` down,
 * from the grant that expires first.
 */
export const creditGrants = pgTable(
  'credit_grants',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    source: text().notNull().$type<'period' | 'purchase' | 'manual'>().default('period'),
    subscriptionId: text().references(() => subscriptions.id),
    periodIndex: integer(),
    checkoutId: text(),
    feature: text().notNull(),
    amount: integer().notNull(),
    remaining: integer().notNull().default(0),
    expiresAt: timestampTz(),
    reason: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('credit_grants_period_feature_unique').on(t.subscriptionId, t.periodIndex, t.feature),
    uniqueIndex('credit_grants_checkout_feature_unique').on(t.checkoutId, t.feature),
    index('credit_grants_customer_feature_idx').on(t.customerId, t.feature),
  ],
);

/** Portal magic links and sessions: only hashes are stored. */
export const portalTokens = pgTable(
  'portal_tokens',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    kind: text().notNull().$type<'link' | 'session'>(),
    tokenHash: text().notNull(),
    expiresAt: timestampTz().notNull(),
    usedAt: timestampTz(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('portal_tokens_hash_unique').on(t.tokenHash)],
);
