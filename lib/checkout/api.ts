import { defineOperation } from '../http/operation';
import { idParam } from '../http/schemas';
import { CompletePaymentLinkBody } from '../payment-links/schemas';
import { CheckoutBody, CheckoutResponse } from './schemas';

const PaymentLinkParams = idParam('paymentLinkId', 'plink');

export const createCheckoutOperation = defineOperation({
  id: 'createCheckout',
  method: 'POST',
  path: '/api/Checkout',
  tag: 'Checkout',
  summary: 'Complete a checkout from your backend',
  description: [
    'Sells a `priceId` or a payment link (`paymentLinkToken`) to an existing `customerId` or to `customerEmail`/`customerName`',
    '(an existing active customer with that email is reused, otherwise one is created: `customer.created`), paying with a saved',
    '`paymentMethodRefId` or a processor `tokenRef`. Answers 201 with the checkout: `paid` true when the payment succeeded, or',
    '`status` open with payment `unknown` until reconciliation settles it. A card that asks for authentication (3-D Secure) also',
    'answers 201 with `status` open and payment `requires_action` whose `nextAction.url` the customer must visit; it comes back to',
    'the optional `returnUrl`, and the payment settles `succeeded` or `failed` (abandoned after PAYMENT_ACTION_TIMEOUT_MS, default',
    '1 hour), with `payment.succeeded`/`payment.failed`. A declined card answers 402 `PAYMENT_DECLINED` whose',
    'body carries `declineCode` and the recorded `checkout`. Emits `payment.*`, `billing_record.created`/`paid`, and',
    '`payment_link.completed` for links. A Recurring price answers 409 until subscriptions take over checkout.',
  ].join(' '),
  scope: 'payment_links:write',
  body: CheckoutBody,
  response: CheckoutResponse,
  successStatus: 201,
  idempotency: 'required',
  financial: true,
  answers: {
    402: 'PAYMENT_DECLINED: the payment was declined (`declineCode`, and `checkout` with its failed payment).',
    409: 'INVALID_STATE: the link or price cannot be bought now.',
  },
});

export const getCheckoutOperation = defineOperation({
  id: 'getCheckout',
  method: 'GET',
  path: '/api/Checkout/{checkoutId}',
  tag: 'Checkout',
  summary: 'Retrieve a checkout and its payment',
  description: 'Only `paid: true` proves payment; a success page shown to the customer does not.',
  scope: 'payment_links:read',
  params: idParam('checkoutId', 'cs'),
  response: CheckoutResponse,
});

export const completePaymentLinkOperation = defineOperation({
  id: 'completePaymentLink',
  method: 'POST',
  path: '/api/PaymentLink/{paymentLinkId}/Complete',
  tag: 'Payment links',
  summary: 'Complete a payment link from your backend',
  description:
    "Pays the link for `customerId` or `customerEmail`/`customerName` with `paymentMethodRefId` or `tokenRef`, at the link's quantity (or the `quantity` given, within its `adjustableQuantity` range). Same answers as POST /api/Checkout (201 with payment `requires_action` and `nextAction` when the card asks for authentication); a link that is disabled, archived, expired or used up answers 409 INVALID_STATE saying why. Emits `payment_link.completed` when the payment succeeds.",
  scope: 'payment_links:write',
  params: PaymentLinkParams,
  body: CompletePaymentLinkBody,
  response: CheckoutResponse,
  successStatus: 201,
  idempotency: 'required',
  financial: true,
  answers: {
    402: 'PAYMENT_DECLINED: the payment was declined (`declineCode`, and `checkout` with its failed payment).',
    409: 'INVALID_STATE: the link cannot be paid now (disabled, archived, completed, expired, or its price is inactive).',
  },
});
