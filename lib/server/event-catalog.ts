import { z } from 'zod';
import { Timestamp } from '../http/schemas';
import { PriceResponse, ProductResponse } from '../catalog/schemas';
import { CustomerResponse } from '../customers/schemas';
import { EntitlementOverrideResponse } from '../entitlements/schemas';
import { PaymentLinkResponse } from '../payment-links/schemas';
import { DisputeResponse, PaymentMethodResponse, PaymentResponse, RefundResponse } from '../payments/schemas';
import { CreditGrantResponse, CustomerEntitlementsResponse, UsageRecordResponse } from '../usage/schemas';
import { SubscriptionResponse } from '../subscriptions/schemas';
import { billingRecordFields, CreditNoteResponse } from '../billing/schemas';
import { EVENT_TYPES, type EventType } from '../events/types';
import { EventSequence } from '../events/sequence';

/** The subscription (and period, when one is billed) a payment belongs to; absent on one-time payments. */
const SubscriptionPeriod = {
  subscriptionId: z.string().optional(),
  periodIndex: z.int().optional(),
  periodStart: Timestamp.optional(),
  periodEnd: Timestamp.optional(),
};

/** A billing record as `billing_record.*` events carry it: its API representation without the payment attempts. */
export const BillingRecordEvent = z.object(billingRecordFields);

export const PaymentEvent = PaymentResponse.extend(SubscriptionPeriod);

/** Credits granted by a paid period, a one-time purchase or by hand (`priceId` when a price's policy granted them). */
export const CreditGrantEvent = CreditGrantResponse.extend({ priceId: z.string().optional() });

export const PaymentLinkCompletedEvent = PaymentLinkResponse.extend({
  checkoutId: z.string(),
  paymentId: z.string().nullable().meta({ description: 'The payment; null when nothing was due (a subscription starting with a trial).' }),
});

/** A feature's credit balance crossing the low line or reaching zero (lib/usage/meter.ts). */
export const CreditBalanceEvent = z.object({
  customerId: z.string(),
  feature: z.string(),
  balance: z.int(),
  granted: z.int(),
  lowThresholdPercent: z.int(),
  latestGrantId: z.string(),
});

/** A period's usage reaching a Limited entitlement's `limit` or its spend reaching `limitAmount`. */
export const EntitlementExhaustedEvent = z.object({
  customerId: z.string(),
  feature: z.string(),
  limit: z.int().nullable(),
  limitAmount: z.int().nullable(),
  used: z.int(),
  spent: z.int(),
  reached: z.enum(['limit', 'limitAmount']),
  periodKey: z.string(),
  periodStart: Timestamp.nullable(),
  periodEnd: Timestamp.nullable(),
});

/** An override created or replaced, or the customer's entitlements after a plan change. */
export const EntitlementChangedEvent = z.union([
  EntitlementOverrideResponse,
  CustomerEntitlementsResponse.extend({ cause: z.string(), subscriptionId: z.string().nullable(), priceIds: z.array(z.string()) }),
]);

/** What `data.object` holds for each event type: the API representation of the resource at that moment. */
export const EVENT_OBJECTS = {
  'product.created': ProductResponse,
  'product.updated': ProductResponse,
  'price.created': PriceResponse,
  'price.updated': PriceResponse,
  'customer.created': CustomerResponse,
  'customer.updated': CustomerResponse,
  'subscription.created': SubscriptionResponse,
  'subscription.updated': SubscriptionResponse,
  'subscription.canceled': SubscriptionResponse,
  'subscription.ended': SubscriptionResponse,
  'billing_record.created': BillingRecordEvent,
  'billing_record.paid': BillingRecordEvent,
  'payment.succeeded': PaymentEvent,
  'payment.failed': PaymentEvent,
  'payment.unknown': PaymentEvent,
  'refund.requested': RefundResponse,
  'refund.succeeded': RefundResponse,
  'refund.failed': RefundResponse,
  'payment_link.created': PaymentLinkResponse,
  'payment_link.updated': PaymentLinkResponse,
  'payment_link.completed': PaymentLinkCompletedEvent,
  'payment_method.attached': PaymentMethodResponse,
  'payment_method.detached': PaymentMethodResponse,
  'dispute.created': DisputeResponse,
  'dispute.updated': DisputeResponse,
  'dispute.closed': DisputeResponse,
  'credit_note.created': CreditNoteResponse,
  'usage.recorded': UsageRecordResponse,
  'usage.reversed': UsageRecordResponse,
  'credit.granted': CreditGrantEvent,
  'credit.low': CreditBalanceEvent,
  'credit.exhausted': CreditBalanceEvent,
  'entitlement.changed': EntitlementChangedEvent,
  'entitlement.exhausted': EntitlementExhaustedEvent,
} satisfies Record<EventType, z.ZodType>;

type DocumentedEventObjects = { [T in EventType]: z.output<(typeof EVENT_OBJECTS)[T]> };

declare module '../events/types' {
  /** Each event type's object, as EVENT_OBJECTS documents it: recordEvent takes nothing else. */
  interface EventObjects extends DocumentedEventObjects {}
}

/** The body of one webhook delivery (DESIGN 4.8): `id` is the deduplication key. */
export function eventBody(type: EventType) {
  return z.object({
    id: z.string().meta({ description: 'Event id (prefix evt_), equal to the X-Service-Event-Id header.' }),
    apiVersion: z.string().meta({
      description: 'The API version the body is rendered in, equal to the `Paybase-Version` header (docs/changelog.md).',
      example: '2026-11-27',
    }),
    type: z.literal(type),
    sequence: EventSequence,
    createdAt: Timestamp,
    data: z.object({
      object: EVENT_OBJECTS[type],
      previousAttributes: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'On `*.updated` events: each changed field with its earlier value.' }),
      test: z.literal(true).optional().meta({
        description:
          'Present, and `true`, only on a test event (POST /api/WebhookEndpoint/{endpointId}/Test): its object is sample data, not a resource of the seller.',
      }),
    }),
  });
}

export const EVENT_BODIES = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventBody(type)])) as Record<EventType, ReturnType<typeof eventBody>>;
