import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import type { ErrorCode } from '../../errors';
import { CheckoutResponse } from '../../checkout/schemas';
import { PaymentResponse } from '../../payments/schemas';

const reasonOf = (description: string) => z.string().optional().meta({ description });

/**
 * The members a problem adds to RFC 9457's, per `code` (each optional unless every answer with
 * that code carries it). The document lists them under the `Problem` component as
 * `x-problem-extras`, and the SDK types `PaybaseError.extra` by code from them.
 */
export const PROBLEM_EXTRAS = {
  VALIDATION_FAILED: z.object({
    contrast: z
      .array(z.object({ path: z.string(), ratio: z.number(), required: z.number() }))
      .optional()
      .meta({ description: 'A checkout design whose colours read too faintly: each pair, its contrast ratio and the ratio required.' }),
    knownVersions: z.array(z.string()).optional().meta({ description: 'An unknown `Paybase-Version`: the versions the server serves.' }),
  }),
  INSUFFICIENT_SCOPE: z.object({
    requiredScope: z.string().optional().meta({ description: 'The scope the operation needs.' }),
    scopes: z.array(z.string()).optional().meta({ description: 'The scopes a role may not give a new API key.' }),
  }),
  FORBIDDEN: z.object({ reason: reasonOf('`two_factor_setup_required`: the account requires a second factor the user has not set up.') }),
  CONFLICT: z.object({ reason: reasonOf('`payment_link_being_paid`: a payment link is being paid by someone else; retry after `Retry-After`.') }),
  VERSION_CONFLICT: z.object({ currentVersion: z.string().meta({ description: "The subscription's current version." }) }),
  INVALID_STATE: z.object({
    state: z.string().optional().meta({ description: "The resource's state, which refuses the request." }),
    requested: z.string().optional().meta({ description: 'The state the request would have moved it to.' }),
    reason: reasonOf('`seller_suspended`: the seller cannot take payments.'),
  }),
  PAYMENT_DECLINED: z.object({
    declineCode: z.string().nullable().meta({ description: "The processor's decline code, e.g. `card_declined`, `insufficient_funds`." }),
    declineMessage: z.string().optional().meta({ description: 'A card refused while being saved: why, for the customer.' }),
    checkout: CheckoutResponse.optional().meta({ description: 'A checkout completion: the checkout with its failed payment.' }),
    payment: PaymentResponse.optional().meta({ description: "A subscription's first charge: the failed payment." }),
  }),
  RATE_LIMITED: z.object({
    retryAfter: z.int().optional().meta({ description: 'Seconds to wait (sign-in APIs).' }),
    limit: z.int().optional().meta({ description: "The API key's requests per window." }),
    windowSeconds: z.int().optional().meta({ description: 'The window, in seconds.' }),
  }),
  PAYLOAD_TOO_LARGE: z.object({ limitBytes: z.int().meta({ description: 'The largest body accepted, in bytes.' }) }),
  SERVICE_UNAVAILABLE: z.object({
    reason: reasonOf('`payment_needs_review` (with `paymentId`), or why the server is not ready.'),
    paymentId: z.string().optional().meta({ description: 'The payment waiting for the platform operator.' }),
  }),
} satisfies Partial<Record<ErrorCode, z.ZodObject>>;

/** The `x-problem-extras` of the `Problem` component and the components its schemas refer to. */
export function problemExtrasSchemas() {
  const extras: Record<string, unknown> = {};
  const components: Record<string, unknown> = {};
  for (const [code, schema] of Object.entries(PROBLEM_EXTRAS)) {
    const rendered = createSchema(schema, { io: 'output' });
    Object.assign(components, rendered.components);
    extras[code] = rendered.schema;
  }
  return { extras, components };
}
