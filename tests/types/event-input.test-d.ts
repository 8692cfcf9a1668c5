import { expectTypeOf, test } from 'vitest';
import type { EventInput } from '@/lib/events/record-event';
import type { EventObject } from '@/lib/events/types';
import type { ProductResponse } from '@/lib/catalog/schemas';
import type { PaymentEvent } from '@/lib/server/event-catalog';
import type { z } from 'zod';

/**
 * Type tests: an event's `object` is what the event catalog (lib/server/event-catalog.ts)
 * documents for its type. Each `@ts-expect-error` line must fail to compile.
 */

const product: z.output<typeof ProductResponse> = {
  id: 'prod_1',
  name: 'Pro',
  description: null,
  active: true,
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

test("each event type's object is the documented schema's output", () => {
  expectTypeOf<EventObject<'product.created'>>().toEqualTypeOf<z.output<typeof ProductResponse>>();
  expectTypeOf<EventObject<'payment.succeeded'>>().toEqualTypeOf<z.output<typeof PaymentEvent>>();
});

test('recordEvent takes a product for product.created, and nothing else', () => {
  const ok: EventInput = { merchantId: 'mer_1', type: 'product.created', object: product };
  expectTypeOf(ok).toMatchTypeOf<EventInput>();
  // @ts-expect-error a bare id is not a product
  const bare: EventInput = { merchantId: 'mer_1', type: 'product.created', object: { id: 'prod_1' } };
  // @ts-expect-error a product is not a payment
  const wrongType: EventInput = { merchantId: 'mer_1', type: 'payment.succeeded', object: product };
  // @ts-expect-error not an event type of the catalog
  const unknownType: EventInput = { merchantId: 'mer_1', type: 'product.exploded', object: product };
  expectTypeOf([bare, wrongType, unknownType]).toBeArray();
});
