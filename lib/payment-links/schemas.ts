import { z } from 'zod';
import { CheckoutBuyerFields } from '../customers/schemas';
import { Currency, DateTime, Email, Metadata, MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';
import { ReturnUrl } from '../payments/schemas';

export const PAYMENT_LINK_STATUSES = ['active', 'disabled', 'archived', 'completed', 'expired'] as const;

const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ description: 'Where the hosted page sends the customer after paying; `checkoutId` is appended as a query parameter.' });

const DesignId = z.string().trim().min(1).max(64).meta({
  description:
    "A checkout design of yours (`design_…`, /api/CheckoutDesign) that styles this link's hosted pages; without one, your default design does. Unknown → 404.",
});
const Name = z.string().trim().min(1).max(250);
const Quantity = z.int().min(1).max(10_000);

export const DEFAULT_MAXIMUM_QUANTITY = 99;
const AdjustableQuantity = z
  .strictObject({
    enabled: z.boolean(),
    minimum: Quantity.optional().meta({ description: 'The least the customer may choose (default 1).' }),
    maximum: Quantity.optional().meta({ description: `The most the customer may choose (default ${DEFAULT_MAXIMUM_QUANTITY}).` }),
  })
  .meta({
    description:
      "Lets the customer choose the quantity on the hosted page, between `minimum` and `maximum` (the link's `quantity` is where it starts and must lie between them). One-time links only. A checkout of the link (POST /api/Checkout with its token, or Complete) may then give any `quantity` in that range.",
  });

export const CreatePaymentLinkBody = z
  .strictObject({
    priceId: z.string().min(1).optional().meta({ description: 'Sell a catalog price; or leave out and give an ad hoc amount.' }),
    quantity: Quantity.default(1),
    adjustableQuantity: AdjustableQuantity.optional(),
    items: z
      .array(z.strictObject({ priceId: z.string().trim().min(1).max(64) }))
      .max(20)
      .optional()
      .meta({
        description:
          'Metered prices the subscription bought through this link carries, billed in arrears at each period end (as `items` of POST /api/Subscription). Only with a licensed Recurring `priceId`; each in its currency, interval and intervalCount, one per feature.',
      }),
    amount: MinorAmount.optional().meta({ description: 'Ad hoc: the line total (unitAmount × quantity) in minor units.' }),
    unitAmount: MinorAmount.optional().meta({ description: 'Ad hoc: the price of one unit in minor units.' }),
    currency: Currency.optional(),
    name: Name.optional().meta({ description: 'What the customer buys; defaults to the product name for a price.' }),
    description: z.string().max(5000).optional(),
    singleUse: z.boolean().default(false),
    maxCompletions: PositiveInt32.optional(),
    expiresAt: DateTime.optional(),
    successUrl: HttpUrl.optional(),
    designId: DesignId.optional(),
    metadata: Metadata.default({}),
  })
  .superRefine((link, ctx) => {
    if (link.items && link.items.length > 0 && !link.priceId) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'Metered items join a subscription: give the licensed Recurring priceId they are sold with.' });
    }
    if (link.priceId) {
      for (const field of ['amount', 'unitAmount', 'currency'] as const) {
        if (link[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `A link for a price takes its ${field} from the price.` });
      }
    } else {
      if (link.amount === undefined && link.unitAmount === undefined) {
        ctx.addIssue({ code: 'custom', path: ['unitAmount'], message: 'Give a priceId, or an ad hoc unitAmount (or amount) with currency and name.' });
      }
      if (!link.currency) ctx.addIssue({ code: 'custom', path: ['currency'], message: 'An ad hoc link needs a currency.' });
      if (!link.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'An ad hoc link needs a name.' });
      if (link.amount !== undefined && link.unitAmount !== undefined && link.amount !== link.unitAmount * link.quantity) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount must equal unitAmount × quantity.' });
      }
      if (link.amount !== undefined && link.unitAmount === undefined && link.amount % link.quantity !== 0) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount must divide evenly by quantity (or give unitAmount).' });
      }
    }
    if (link.singleUse && link.maxCompletions !== undefined && link.maxCompletions !== 1) {
      ctx.addIssue({ code: 'custom', path: ['maxCompletions'], message: 'A single-use link completes once; leave maxCompletions out or set 1.' });
    }
  });

/** The spec's updatable fields only; anything else is a 400 naming the field. */
export const UpdatePaymentLinkBody = z.strictObject({
  designId: DesignId.nullable().optional(),
  expiresAt: DateTime.nullable().optional(),
  maxCompletions: PositiveInt32.nullable().optional(),
  name: Name.optional(),
  quantity: Quantity.optional(),
  adjustableQuantity: AdjustableQuantity.optional(),
  successUrl: HttpUrl.nullable().optional(),
});

export const CompletePaymentLinkBody = z.strictObject({
  ...CheckoutBuyerFields,
  customerEmail: Email.optional(),
  customerId: z.string().min(1).optional(),
  customerName: z.string().trim().min(1).max(250).optional(),
  metadata: Metadata.optional().meta({
    description: "Your own key/value strings, kept on the checkout and its payment together with the link's own metadata (a key given here wins).",
  }),
  paymentMethodRefId: z.string().min(1).optional(),
  priceId: z.string().min(1).optional().meta({ description: "Optional check: must be the link's own price." }),
  quantity: Quantity.optional().meta({
    description: "How many units the customer buys, within the link's `adjustableQuantity` range; without one, the link's `quantity`.",
  }),
  promotionCode: z.string().trim().min(1).max(64).optional(),
  returnUrl: ReturnUrl.optional(),
  tokenRef: z.string().min(1).max(512).optional(),
});

export const PaymentLinkResponse = z.object({
  id: z.string(),
  token: z.string(),
  url: z.string().meta({ description: 'The public hosted checkout page, /pay/{token}.' }),
  status: z.enum(PAYMENT_LINK_STATUSES),
  priceId: z.string().nullable(),
  items: z
    .array(z.object({ priceId: z.string() }))
    .meta({ description: 'Metered prices added as items to the subscription a checkout of this link creates (empty for most links).' }),
  name: z.string(),
  description: z.string().nullable(),
  unitAmount: z.int(),
  amount: z.int().meta({ description: 'unitAmount × quantity, before any promotion code.' }),
  currency: z.string(),
  quantity: z.int(),
  adjustableQuantity: z.object({ enabled: z.boolean(), minimum: z.int(), maximum: z.int() }).meta({
    description: 'Whether the customer may choose the quantity on the hosted page, and between which bounds (1 and 99 when not enabled).',
  }),
  singleUse: z.boolean(),
  maxCompletions: z.int().nullable(),
  completionCount: z.int(),
  expiresAt: Timestamp.nullable(),
  successUrl: z.string().nullable(),
  designId: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
