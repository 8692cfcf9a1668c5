import { z } from 'zod';
import { CheckoutBuyerFields } from '../customers/schemas';
import { Email, Metadata, Timestamp } from '../http/schemas';
import { PaymentResponse, ReturnUrl } from '../payments/schemas';

export const CHECKOUT_STATUSES = ['open', 'paid', 'failed', 'expired'] as const;

export const CheckoutBody = z
  .strictObject({
    ...CheckoutBuyerFields,
    customerEmail: Email.optional(),
    customerId: z.string().min(1).optional(),
    customerName: z.string().trim().min(1).max(250).optional(),
    metadata: Metadata.optional().meta({
      description:
        "Your own key/value strings (e.g. your order id), kept on the checkout and its payment and returned in their answers and events. A payment link's metadata is included; a key given here wins.",
    }),
    paymentLinkToken: z.string().min(1).max(128).optional(),
    paymentMethodRefId: z.string().min(1).optional().meta({ description: 'A saved payment method (pm_) of the customer.' }),
    priceId: z.string().min(1).optional(),
    promotionCode: z.string().trim().min(1).max(64).optional(),
    quantity: z.int().min(1).max(10_000).optional().meta({
      description:
        "Units bought (default 1). With a paymentLinkToken: the link's quantity, or one within its `adjustableQuantity` range (anything else is 400 naming `quantity`).",
    }),
    returnUrl: ReturnUrl.optional(),
    tokenRef: z.string().min(1).max(512).optional().meta({ description: 'A processor token, e.g. the sandbox tok_visa.' }),
  })
  .superRefine((body, ctx) => {
    if ((body.priceId === undefined) === (body.paymentLinkToken === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['priceId'], message: 'Give exactly one of priceId or paymentLinkToken.' });
    }
  });

export const CheckoutResponse = z.object({
  id: z.string(),
  status: z.enum(CHECKOUT_STATUSES),
  paid: z.boolean().meta({ description: 'True only once the payment succeeded; the only proof of payment besides webhooks.' }),
  paymentLinkId: z.string().nullable(),
  priceId: z.string().nullable(),
  customerId: z.string(),
  description: z.string(),
  currency: z.string(),
  unitAmount: z.int(),
  quantity: z.int(),
  subtotal: z.int(),
  discountAmount: z.int(),
  taxAmount: z.int().meta({ description: 'All tax of the checkout (inclusive and exclusive); `total` includes the exclusive part.' }),
  total: z.int().meta({ description: '`subtotal` - `discountAmount` + exclusive tax: what the card is charged.' }),
  promotionCode: z.string().nullable(),
  couponId: z.string().nullable(),
  billingRecordId: z.string().nullable(),
  successUrl: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  payment: PaymentResponse.nullable(),
  subscriptionId: z
    .string()
    .nullable()
    .meta({ description: 'For a checkout of a Recurring price: the subscription it started (null otherwise, or when declined).' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
