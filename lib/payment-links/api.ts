import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import { CreatePaymentLinkBody, PAYMENT_LINK_STATUSES, PaymentLinkResponse, UpdatePaymentLinkBody } from './schemas';

const PaymentLinkParams = idParam('paymentLinkId', 'plink');

export const listPaymentLinksOperation = defineOperation({
  id: 'listPaymentLinks',
  method: 'GET',
  path: '/api/PaymentLink',
  tag: 'Payment links',
  summary: 'List payment links',
  scope: 'payment_links:read',
  query: listQuery(['createdAt', 'name'], {
    status: z.enum(PAYMENT_LINK_STATUSES).optional(),
    priceId: z.string().min(1).optional(),
  }),
  response: pageOf(PaymentLinkResponse),
});

export const createPaymentLinkOperation = defineOperation({
  id: 'createPaymentLink',
  method: 'POST',
  path: '/api/PaymentLink',
  tag: 'Payment links',
  summary: 'Create a payment link',
  description:
    'For a `priceId` (with `quantity`), or ad hoc with `unitAmount` (or `amount` = unitAmount × quantity), `currency` and `name`. The answer has the public `url` (/pay/{token}). Emits `payment_link.created`.',
  scope: 'payment_links:write',
  body: CreatePaymentLinkBody,
  response: PaymentLinkResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getPaymentLinkOperation = defineOperation({
  id: 'getPaymentLink',
  method: 'GET',
  path: '/api/PaymentLink/{paymentLinkId}',
  tag: 'Payment links',
  summary: 'Retrieve a payment link',
  scope: 'payment_links:read',
  params: PaymentLinkParams,
  response: PaymentLinkResponse,
});

export const updatePaymentLinkOperation = defineOperation({
  id: 'updatePaymentLink',
  method: 'PUT',
  path: '/api/PaymentLink/{paymentLinkId}',
  tag: 'Payment links',
  summary: 'Update a payment link',
  description:
    'Only designId, expiresAt, maxCompletions, name, quantity and successUrl; `null` clears designId, expiresAt, maxCompletions or successUrl. An archived link answers 409.',
  scope: 'payment_links:write',
  params: PaymentLinkParams,
  body: UpdatePaymentLinkBody,
  response: PaymentLinkResponse,
  answers: { 409: 'INVALID_STATE: the link is archived.' },
});

function transition(id: string, action: string, summary: string, description: string) {
  return defineOperation({
    id,
    method: 'POST',
    path: `/api/PaymentLink/{paymentLinkId}/${action}`,
    tag: 'Payment links',
    summary,
    description,
    scope: 'payment_links:write',
    params: PaymentLinkParams,
    response: PaymentLinkResponse,
    answers: { 409: 'INVALID_STATE: the link cannot make this transition from its state.' },
  });
}

export const archivePaymentLinkOperation = transition(
  'archivePaymentLink',
  'Archive',
  'Archive a payment link',
  'Final: an archived link is never paid again. Archiving an archived link answers 409 INVALID_STATE.',
);
export const disablePaymentLinkOperation = transition(
  'disablePaymentLink',
  'Disable',
  'Disable a payment link',
  'active → disabled; from any other state 409 INVALID_STATE.',
);
export const enablePaymentLinkOperation = transition(
  'enablePaymentLink',
  'Enable',
  'Enable a payment link',
  'disabled → active; from any other state (expired included) 409 INVALID_STATE.',
);

export const duplicatePaymentLinkOperation = defineOperation({
  id: 'duplicatePaymentLink',
  method: 'POST',
  path: '/api/PaymentLink/{paymentLinkId}/Duplicate',
  tag: 'Payment links',
  summary: 'Duplicate a payment link',
  description: 'A new active link with the same item and options, a new token and no completions. Emits `payment_link.created`.',
  scope: 'payment_links:write',
  params: PaymentLinkParams,
  response: PaymentLinkResponse,
  successStatus: 201,
});
