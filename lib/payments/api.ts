import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import {
  AttachPaymentMethodBody,
  DISPUTE_STATUSES,
  DisputeEvidenceBody,
  DisputeResponse,
  PaymentMethodResponse,
  PAYMENT_STATUSES,
  PaymentResponse,
  PaymentWithRefundsResponse,
  RefundBody,
  RefundResponse,
} from './schemas';

const PaymentParams = idParam('paymentId', 'pay');
const CustomerParams = idParam('customerId', 'cus');

export const listPaymentsOperation = defineOperation({
  id: 'listPayments',
  method: 'GET',
  path: '/api/Payment',
  tag: 'Payments',
  summary: 'List payments',
  scope: 'payments:read',
  query: listQuery(['createdAt', 'amount'], {
    status: z.enum(PAYMENT_STATUSES).optional(),
    customerId: z.string().min(1).optional(),
    checkoutId: z.string().min(1).optional(),
  }),
  response: pageOf(PaymentResponse),
});

export const getPaymentOperation = defineOperation({
  id: 'getPayment',
  method: 'GET',
  path: '/api/Payment/{paymentId}',
  tag: 'Payments',
  summary: 'Retrieve a payment with its refunds',
  scope: 'payments:read',
  params: PaymentParams,
  response: PaymentWithRefundsResponse,
});

export const listRefundsOperation = defineOperation({
  id: 'listRefunds',
  method: 'GET',
  path: '/api/Payment/{paymentId}/Refund',
  tag: 'Payments',
  summary: "List a payment's refunds",
  scope: 'payments:read',
  params: PaymentParams,
  response: z.object({ data: z.array(RefundResponse) }),
});

export const refundPaymentOperation = defineOperation({
  id: 'refundPayment',
  method: 'POST',
  path: '/api/Payment/{paymentId}/Refund',
  tag: 'Payments',
  summary: 'Refund a payment, fully or partly',
  description:
    '`amount` defaults to everything not yet refunded and may not exceed it (400). The payment becomes partially_refunded or refunded. Answers 201 with the refund, whose status is succeeded or failed. Emits `refund.requested` then `refund.succeeded` or `refund.failed`.',
  scope: 'refunds:write',
  params: PaymentParams,
  body: RefundBody,
  response: RefundResponse,
  successStatus: 201,
  idempotency: 'required',
  financial: true,
  answers: { 409: 'INVALID_STATE: the payment is not refundable (not succeeded, or nothing left to refund).' },
});

const PaymentMethodParams = idParam('customerId', 'cus').extend(idParam('paymentMethodId', 'pm').shape);

export const attachPaymentMethodOperation = defineOperation({
  id: 'attachPaymentMethod',
  method: 'POST',
  path: '/api/Customer/{customerId}/PaymentMethod',
  tag: 'Customers',
  summary: 'Save a card for a customer',
  description:
    'Verifies the card with a zero-amount authorization at the processor, then saves it (201). A declining card answers 402 `PAYMENT_DECLINED` with `declineCode` and `declineMessage`, and nothing is saved. Emits `payment_method.attached` (and `subscription.updated` for subscriptions that move to a new default).',
  scope: 'payments:write',
  params: idParam('customerId', 'cus'),
  body: AttachPaymentMethodBody,
  response: PaymentMethodResponse,
  successStatus: 201,
  idempotency: 'required',
  answers: { 402: 'PAYMENT_DECLINED: the card declined the zero-amount authorization (`declineCode`, `declineMessage`); nothing was saved.' },
});

export const makeDefaultPaymentMethodOperation = defineOperation({
  id: 'makeDefaultPaymentMethod',
  method: 'POST',
  path: '/api/Customer/{customerId}/PaymentMethod/{paymentMethodId}/Default',
  tag: 'Customers',
  summary: "Make a saved card the customer's default",
  description:
    "The customer's running subscriptions charge it from now on (a ChangePaymentMethod change and `subscription.updated` each); open past-due records are retried with it at once. No body.",
  scope: 'payments:write',
  params: PaymentMethodParams,
  response: PaymentMethodResponse,
});

export const detachPaymentMethodOperation = defineOperation({
  id: 'detachPaymentMethod',
  method: 'DELETE',
  path: '/api/Customer/{customerId}/PaymentMethod/{paymentMethodId}',
  tag: 'Customers',
  summary: 'Remove a saved card',
  description:
    'Emits `payment_method.detached`. Removing the default makes another saved card the default; the only card of a customer with a running subscription cannot be removed (409).',
  scope: 'payments:write',
  params: PaymentMethodParams,
  response: PaymentMethodResponse,
  answers: { 409: 'INVALID_STATE: the only card of a customer with a running subscription.' },
});

export const listPaymentMethodsOperation = defineOperation({
  id: 'listPaymentMethods',
  method: 'GET',
  path: '/api/Customer/{customerId}/PaymentMethod',
  tag: 'Customers',
  summary: "List a customer's saved payment method references",
  description: 'Brand, last 4 digits and expiry only; card numbers are never stored.',
  scope: 'payments:read',
  params: CustomerParams,
  query: listQuery(['createdAt']),
  response: pageOf(PaymentMethodResponse),
});

const DisputeParams = idParam('disputeId', 'dsp');

export const listDisputesOperation = defineOperation({
  id: 'listDisputes',
  method: 'GET',
  path: '/api/Dispute',
  tag: 'Disputes',
  summary: 'List disputes',
  description: 'Chargebacks and inquiries of payments, as Stripe reports them.',
  scope: 'disputes:read',
  query: listQuery(['createdAt', 'amount'], {
    status: z.enum(DISPUTE_STATUSES).optional(),
    paymentId: z.string().min(1).optional(),
  }),
  response: pageOf(DisputeResponse),
});

export const getDisputeOperation = defineOperation({
  id: 'getDispute',
  method: 'GET',
  path: '/api/Dispute/{disputeId}',
  tag: 'Disputes',
  summary: 'Retrieve a dispute',
  scope: 'disputes:read',
  params: DisputeParams,
  response: DisputeResponse,
});

export const submitDisputeEvidenceOperation = defineOperation({
  id: 'submitDisputeEvidence',
  method: 'POST',
  path: '/api/Dispute/{disputeId}/Evidence',
  tag: 'Disputes',
  summary: 'Send evidence for a dispute',
  description:
    'Sends the evidence to Stripe while the dispute is `needs_response` or `warning_needs_response`; submitted, it is `under_review` and final. Emits `dispute.updated`; the outcome comes as `dispute.closed`.',
  scope: 'disputes:write',
  params: DisputeParams,
  body: DisputeEvidenceBody,
  response: DisputeResponse,
  idempotency: 'required',
  answers: {
    409: 'INVALID_STATE: the dispute takes no evidence now, or Stripe refused it. CONFLICT: not connected to its Stripe mode.',
  },
});
