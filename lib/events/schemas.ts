import { z } from 'zod';
import { Timestamp } from '../http/schemas';
import { PriceResponse, ProductResponse } from '../catalog/schemas';
import { CustomerResponse } from '../customers/schemas';
import { EntitlementOverrideResponse } from '../entitlements/schemas';
import { PaymentLinkResponse } from '../payment-links/schemas';
import { PaymentResponse, RefundResponse } from '../payments/schemas';
import { SubscriptionResponse } from '../subscriptions/schemas';
import { EVENT_TYPES, type EventType } from './types';

/** A billing record as `billing_record.*` events carry it (lib/billing/billing-records.ts). */
export const BillingRecordEvent = z.object({
  id: z.string(),
  status: z.enum(['open', 'paid', 'void', 'uncollectible']),
  customerId: z.string(),
  checkoutId: z.string().nullable(),
  paymentId: z.string().nullable(),
  amount: z.int(),
  currency: z.string(),
  description: z.string(),
  paidAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Credits granted for a subscription period by a price's credit policy. */
export const CreditGrantEvent = z.object({
  id: z.string(),
  customerId: z.string(),
  subscriptionId: z.string(),
  priceId: z.string(),
  feature: z.string(),
  amount: z.int(),
  periodIndex: z.int(),
  createdAt: Timestamp,
});

export const PaymentLinkCompletedEvent = PaymentLinkResponse.extend({ checkoutId: z.string(), paymentId: z.string() });

/** Types the usage engine will emit (docs/webhooks.md): listed so endpoints can subscribe; no body shape yet. */
const ReservedEvent = z.record(z.string(), z.unknown()).meta({ description: 'Not emitted by this version (the usage engine comes later).' });

/** What `data.object` holds for each event type: the API representation of the resource at that moment. */
export const EVENT_OBJECTS: Record<EventType, z.ZodType> = {
  'product.created': ProductResponse,
  'price.created': PriceResponse,
  'customer.created': CustomerResponse,
  'subscription.created': SubscriptionResponse,
  'subscription.canceled': SubscriptionResponse,
  'subscription.ended': SubscriptionResponse,
  'billing_record.created': BillingRecordEvent,
  'billing_record.paid': BillingRecordEvent,
  'payment.succeeded': PaymentResponse,
  'payment.failed': PaymentResponse,
  'payment.unknown': PaymentResponse,
  'refund.requested': RefundResponse,
  'refund.succeeded': RefundResponse,
  'refund.failed': RefundResponse,
  'payment_link.created': PaymentLinkResponse,
  'payment_link.completed': PaymentLinkCompletedEvent,
  'usage.recorded': ReservedEvent,
  'usage.reversed': ReservedEvent,
  'credit.granted': CreditGrantEvent,
  'credit.low': ReservedEvent,
  'credit.exhausted': ReservedEvent,
  'entitlement.changed': EntitlementOverrideResponse,
  'entitlement.exhausted': ReservedEvent,
};

/** The body of one webhook delivery (DESIGN 4.8): `id` is the deduplication key. */
export function eventBody(type: EventType) {
  return z.object({
    id: z.string().meta({ description: 'Event id (prefix evt_), equal to the X-Service-Event-Id header.' }),
    type: z.literal(type),
    createdAt: Timestamp,
    data: z.object({ object: EVENT_OBJECTS[type] }),
  });
}

export const EVENT_BODIES = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventBody(type)])) as Record<EventType, ReturnType<typeof eventBody>>;
