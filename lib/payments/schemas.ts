import { z } from 'zod';
import { Metadata, Timestamp } from '../http/schemas';
import { DISPUTE_EVIDENCE_FIELDS, DISPUTE_STATUSES } from '../db/schema/disputes';

export const PaymentMethodResponse = z.object({
  id: z.string(),
  customerId: z.string(),
  type: z.literal('card'),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.int(),
  expYear: z.int(),
  isDefault: z.boolean(),
  get processor() {
    return ProcessorDetails;
  },
  createdAt: Timestamp,
});

export const AttachPaymentMethodBody = z.strictObject({
  tokenRef: z.string().min(1).max(512).meta({ description: 'A processor token, e.g. the sandbox tok_visa.' }),
  makeDefault: z.boolean().optional().meta({
    description: "true makes it the customer's default and the method their running subscriptions charge. A customer's first method is always the default.",
  }),
});

/** Where a card authentication page (3-D Secure) sends the customer back. */
export const ReturnUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({
    description:
      'Where the card authentication page (3-D Secure) sends the customer back when the payment answers `requires_action`; `{CHECKOUT_ID}` in it is replaced by the checkout id. Without it, the authentication page ends on a page of its own; either way the payment settles on its own (poll GET /api/Checkout/{id} or wait for `payment.succeeded`/`payment.failed`).',
  });

export const PAYMENT_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'unknown', 'needs_review', 'partially_refunded', 'refunded'] as const;

export const NextActionResponse = z
  .object({
    type: z.literal('redirect_to_url'),
    url: z
      .url()
      .meta({ description: "The processor's authentication page (3-D Secure). Send the customer's browser there; it comes back to the checkout's returnUrl." }),
  })
  .meta({
    id: 'NextAction',
    description: 'What the customer must do before the payment can go on; set only while the payment is `requires_action`.',
  });

export const ProcessorDetails = z
  .object({
    name: z.enum(['sandbox', 'stripe']),
    mode: z.enum(['test', 'live']).meta({ description: '`live` moved real money; the sandbox and Stripe test keys are `test`.' }),
    reference: z.string().nullable().meta({
      description:
        "The processor's own id (Stripe: the PaymentIntent `pi_…`, refund `re_…`, dispute `dp_…` or saved card's PaymentMethod `pm_…`); null until it gives one, and for the sandbox's saved cards.",
    }),
  })
  .meta({ id: 'ProcessorDetails', description: 'Where the money moved (docs/processors.md).' });

export const PaymentResponse = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_STATUSES).meta({
    description:
      '`requires_action`: the customer must authenticate (3-D Secure) at `nextAction.url`; the payment then settles as `succeeded` or `failed` like an `unknown` one (docs/payments.md, "Authentication").',
  }),
  amount: z.int(),
  amountRefunded: z.int(),
  currency: z.string(),
  customerId: z.string(),
  checkoutId: z.string().nullable(),
  paymentMethodId: z.string().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  description: z.string(),
  failureCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
  nextAction: NextActionResponse.nullable(),
  processor: ProcessorDetails,
  metadata: z.record(z.string(), z.string()).meta({ description: "Your own key/value strings: a checkout's payment carries the checkout's." }),
  settledAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const REFUND_STATUSES = ['requested', 'succeeded', 'failed'] as const;

export const RefundResponse = z.object({
  id: z.string(),
  paymentId: z.string(),
  status: z.enum(REFUND_STATUSES),
  amount: z.int(),
  currency: z.string(),
  reason: z.string().nullable(),
  failureMessage: z.string().nullable(),
  processor: ProcessorDetails,
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export { DISPUTE_STATUSES };

/** Stripe's limit for one dispute's evidence, all text fields together. */
export const DISPUTE_EVIDENCE_TOTAL_MAX = 150_000;

const evidenceFields = <T extends z.ZodType>(field: T) =>
  Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((name) => [name, field])) as Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], T>;

export const DisputeEvidenceText = z.object(evidenceFields(z.string().optional())).meta({ id: 'DisputeEvidenceText' });

export const DisputeResponse = z
  .object({
    id: z.string(),
    paymentId: z.string(),
    status: z.enum(DISPUTE_STATUSES).meta({ description: "Stripe's status; `warning_*` are inquiries. Closed: `won`, `lost`, `warning_closed`, `prevented`." }),
    amount: z.int(),
    currency: z.string(),
    reason: z.string().meta({ description: "The network's reason, e.g. `fraudulent`, `product_not_received`." }),
    evidenceDueBy: Timestamp.nullable(),
    evidence: DisputeEvidenceText,
    evidenceSubmissionCount: z.int(),
    fundsWithdrawn: z.boolean().meta({ description: 'The amount was taken from the balance.' }),
    fundsReinstated: z.boolean().meta({ description: 'It was given back (won).' }),
    processor: ProcessorDetails,
    closedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Dispute', description: 'A chargeback or inquiry of a payment, as the processor reports it.' });

export const PaymentWithRefundsResponse = PaymentResponse.extend({
  refunds: z.array(RefundResponse),
  disputes: z.array(DisputeResponse),
});

const EvidenceText = z.string().trim().min(1).max(20_000);

export const DisputeEvidenceBody = z
  .strictObject({
    ...evidenceFields(EvidenceText.optional()),
    submit: z.boolean().optional().meta({ description: 'Default true: sent to the issuer, final. false: a draft at Stripe.' }),
  })
  .refine((body) => DISPUTE_EVIDENCE_FIELDS.some((field) => body[field] !== undefined), {
    message: 'Give at least one evidence field.',
    path: ['uncategorizedText'],
  })
  .refine((body) => DISPUTE_EVIDENCE_FIELDS.reduce((total, field) => total + (body[field]?.length ?? 0), 0) <= DISPUTE_EVIDENCE_TOTAL_MAX, {
    message: `All evidence fields together may hold at most ${DISPUTE_EVIDENCE_TOTAL_MAX} characters.`,
    path: ['uncategorizedText'],
  });

export const RefundBody = z.strictObject({
  amount: z.int().min(1).max(2_147_483_647).optional().meta({ description: 'Minor units; defaults to everything not yet refunded.' }),
  reason: z.string().trim().min(1).max(500).optional(),
  metadata: Metadata.optional().meta({ description: 'Your own key/value strings, kept on the refund and returned in its answers and events.' }),
});
