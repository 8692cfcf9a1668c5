/** Every event type of the spec's Events table, unchanged. */
export const SPEC_EVENT_TYPES = [
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

/**
 * Types the spec's table does not list, added so a backend hears about every change it keeps a
 * copy of (issue 15; docs/decisions.md, "Lifecycle events"), and disputes (issue 29; docs/processors.md,
 * "Disputes"). Updates carry `previousAttributes`.
 */
export const ADDED_EVENT_TYPES = [
  'product.updated',
  'price.updated',
  'customer.updated',
  'subscription.updated',
  'payment_link.updated',
  'payment_method.attached',
  'payment_method.detached',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'credit_note.created',
] as const;

export const EVENT_TYPES = [...SPEC_EVENT_TYPES, ...ADDED_EVENT_TYPES] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * What `data.object` holds for each event type. Empty here: the event catalog
 * (lib/server/event-catalog.ts), which knows every domain's response schemas, fills it in by
 * declaration merging, so every recorded event is checked against its documented schema at
 * compile time without this foundation importing any domain.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging (lib/server/event-catalog.ts)
export interface EventObjects {}

/** The object an event of type `T` carries. */
export type EventObject<T extends EventType> = T extends keyof EventObjects ? EventObjects[T] : never;
