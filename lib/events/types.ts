/** Every event type of the spec's Events table. */
export const EVENT_TYPES = [
  'product.created',
  'price.created',
  'customer.created',
  'subscription.created',
  'subscription.canceled',
  'subscription.ended',
  'billing_record.created',
  'billing_record.paid',
  'payment.succeeded',
  'payment.failed',
  'payment.unknown',
  'refund.requested',
  'refund.succeeded',
  'refund.failed',
  'payment_link.created',
  'payment_link.completed',
  'usage.recorded',
  'usage.reversed',
  'credit.granted',
  'credit.low',
  'credit.exhausted',
  'entitlement.changed',
  'entitlement.exhausted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
