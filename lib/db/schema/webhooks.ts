import { sql } from 'drizzle-orm';
import { pgTable, text, boolean, integer, jsonb, index, uniqueIndex, bigint } from 'drizzle-orm/pg-core';
import { merchants } from './merchants';
import { events } from './events';
import { createdAt, timestampTz, updatedAt } from './columns';

export type WebhookEndpointDisabledReason = 'manual' | 'gone' | 'failing';

/** A seller's receiver. Signing secrets are AES-256-GCM ciphertext (DESIGN 4.10), never plain text. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text().primaryKey(),
    merchantId: text()
      .notNull()
      .references(() => merchants.id),
    url: text().notNull(),
    description: text(),
    /** Event type names, or `*` for every type. */
    events: text().array().notNull(),
    enabled: boolean().notNull().default(true),
    disabledReason: text().$type<WebhookEndpointDisabledReason>(),
    disabledAt: timestampTz(),
    secretCiphertext: text().notNull(),
    secretPrefix: text().notNull(),
    /** The secret replaced by the last rotation; it keeps signing until `previousSecretExpiresAt`. */
    previousSecretCiphertext: text(),
    previousSecretExpiresAt: timestampTz(),
    /** Start of the current run of failed attempts; null once an attempt succeeds. */
    failingSince: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_endpoints_merchant_idx').on(t.merchantId, t.createdAt),
    // The operator's overview lists failing and disabled endpoints across sellers.
    index('webhook_endpoints_unhealthy_idx').on(t.merchantId).where(sql`${t.enabled} = false or ${t.failingSince} is not null`),
  ],
);

export type WebhookDeliveryStatus = 'pending' | 'failed' | 'delivered' | 'dead';

/** One event to one endpoint; unique per pair, so an event is in the history once per endpoint. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text()
      .notNull()
      .references(() => events.id),
    eventType: text().notNull(),
    /** The event's `sequence`: due rows are claimed in (due_at, event_sequence) order, a change's events in their order. */
    eventSequence: bigint({ mode: 'number' }),
    status: text().notNull().$type<WebhookDeliveryStatus>().default('pending'),
    /** Automatic attempts made so far (manual retries are recorded but not counted here). */
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: timestampTz(),
    lastAttemptAt: timestampTz(),
    lastResponseStatus: integer(),
    lastError: text(),
    deliveredAt: timestampTz(),
    /**
     * The delivery queue (docs/webhooks.md): when a dispatcher should next claim the row, null
     * when there is nothing to send. While an attempt is in flight it equals `leaseUntil`, so a
     * crashed dispatcher's rows simply come due again.
     */
    dueAt: timestampTz(),
    /** While an attempt is in flight: until when it may run, and which dispatcher runs it. */
    leaseUntil: timestampTz(),
    leaseWorkerId: text(),
    /** A Retry or recover asked for and not yet sent: its trigger and when it was asked. */
    requestedTrigger: text().$type<Exclude<WebhookAttemptTrigger, 'automatic'>>(),
    requestedAt: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_unique').on(t.endpointId, t.eventId),
    index('webhook_deliveries_merchant_created_idx').on(t.merchantId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_endpoint_status_idx').on(t.endpointId, t.status, t.createdAt),
    index('webhook_deliveries_dead_idx').on(t.createdAt).where(sql`${t.status} = 'dead'`),
    index('webhook_deliveries_due_idx').on(t.dueAt, t.eventSequence).where(sql`due_at is not null`),
    // Attempts in flight per endpoint, counted by every claim (WEBHOOK_ENDPOINT_CONCURRENCY).
    index('webhook_deliveries_leased_idx').on(t.endpointId).where(sql`lease_until is not null`),
  ],
);

export type WebhookAttemptTrigger = 'automatic' | 'manual' | 'recover';

/** Every HTTP attempt of a delivery, as the console and GET /api/WebhookDelivery/{id} show it. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    trigger: text().notNull().$type<WebhookAttemptTrigger>(),
    url: text().notNull(),
    requestHeaders: jsonb().notNull().$type<Record<string, string>>(),
    startedAt: timestampTz().notNull(),
    durationMs: integer().notNull(),
    responseStatus: integer(),
    /** The first 4 KiB of the response body. */
    responseBody: text(),
    error: text(),
    succeeded: boolean().notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.startedAt)],
);
