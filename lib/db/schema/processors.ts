import { boolean, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz } from './columns';
import { customers } from './customers';

/**
 * Events the payment processor sent to its webhook (docs/processors.md, "Webhooks from Stripe"),
 * once each: the processor's event id is the key, so a redelivered event is stored and processed
 * once. The worker processes them (`process-stripe-event`), never the request that received them.
 */
export const processorEvents = pgTable(
  'processor_events',
  {
    /** Stripe's `evt_…` id. */
    id: text().primaryKey(),
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
  (t) => [index('processor_events_unprocessed_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`)],
);

/**
 * The webhook endpoint Paybase registered at Stripe for a connection (`platform`: the one from
 * settings) when no STRIPE_WEBHOOK_SECRET is set; its signing secret is sealed (lib/secret-box.ts).
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
 * One per customer, processor and mode (a test customer is never charged in live mode).
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
    reference: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.processor, t.mode] })],
);
