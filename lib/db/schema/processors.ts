import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz } from './columns';
import { customers } from './customers';
import { merchants } from './merchants';

/**
 * Which processor account a payment (and what follows from it) belongs to: `platform`, the one
 * from settings (PAYMENT_PROCESSOR, STRIPE_SECRET_KEY), or a seller's own connection (its id).
 */
export const PLATFORM_CONNECTION = 'platform';

/**
 * A seller's own Stripe account, connected in the console (Settings → Payments; docs/processors.md,
 * "Connecting a seller's Stripe account"). Its secret key is sealed (lib/secret-box.ts) and wiped
 * when the seller disconnects; the row stays, so the payments made through it still name it.
 */
export const processorConnections = pgTable(
  'processor_connections',
  {
    id: text().primaryKey(),
    merchantId: text()
      .notNull()
      .references(() => merchants.id),
    processor: text().notNull().$type<'stripe'>(),
    mode: text().notNull().$type<'test' | 'live'>(),
    /** Stripe's account id (`acct_…`) and the business name it has there. */
    accountReference: text().notNull(),
    accountName: text(),
    /** Null once disconnected. */
    sealedSecretKey: text(),
    publishableKey: text().notNull(),
    connectedBy: text().notNull(),
    createdAt: createdAt(),
    disconnectedAt: timestampTz(),
  },
  (t) => [uniqueIndex('processor_connections_one_active').on(t.merchantId).where(sql`${t.disconnectedAt} is null`)],
);

/**
 * Events the payment processor sent to its webhook (docs/processors.md, "Webhooks from Stripe"),
 * once each: the processor's event id is the key, so a redelivered event is stored and processed
 * once. The worker processes them (`process-stripe-event`), never the request that received them.
 */
export const processorEvents = pgTable(
  'processor_events',
  {
    /** Stripe's `evt_…` id, unique per connection (two connections to one Stripe account both receive its events). */
    id: text().notNull(),
    connection: text().notNull().default(PLATFORM_CONNECTION),
    processor: text().notNull().$type<'stripe'>(),
    livemode: boolean().notNull(),
    type: text().notNull(),
    /** The event as the processor sent it (verified). */
    payload: jsonb().notNull().$type<Record<string, unknown>>(),
    receivedAt: createdAt(),
    processedAt: timestampTz(),
    /** What processing did, in words, for an operator reading the table. */
    outcome: text(),
  },
  (t) => [
    primaryKey({ columns: [t.connection, t.id] }),
    index('processor_events_unprocessed_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`),
    index('processor_events_received_idx').on(t.receivedAt),
  ],
);

/**
 * The webhook endpoint Paybase registered at Stripe for a connection (`platform`: the one from
 * settings, when no STRIPE_WEBHOOK_SECRET is set; a seller connection's id, always); its signing secret is sealed (lib/secret-box.ts).
 */
export const stripeWebhookEndpoints = pgTable('stripe_webhook_endpoints', {
  connection: text().primaryKey(),
  mode: text().notNull().$type<'test' | 'live'>(),
  url: text().notNull(),
  stripeEndpointId: text().notNull(),
  sealedSecret: text().notNull(),
  createdAt: createdAt(),
});

/**
 * The processor's customer of each of ours (Stripe Customers, `cus_…`), made when a card of
 * theirs is first saved or charged: saved cards are attached to it and charged off-session with it.
 * One per customer, processor, mode and connection (a test customer is never charged in live mode).
 */
export const processorCustomers = pgTable(
  'processor_customers',
  {
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    processor: text().notNull().$type<'stripe'>(),
    mode: text().notNull().$type<'test' | 'live'>(),
    /** The account the customer is at: a Stripe Customer of one account does not exist at another. */
    connection: text().notNull().default(PLATFORM_CONNECTION),
    reference: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.processor, t.mode, t.connection] })],
);
