import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import { CheckoutDesignResponse, CreateCheckoutDesignBody, UpdateCheckoutDesignBody } from './schemas';

const CheckoutDesignParams = idParam('designId', 'design');

const contrastAnswer =
  'VALIDATION_FAILED: a field is invalid; for colours that fail WCAG AA the problem names the field and its contrast ratio (`errors`, and `contrast`: [{ path, ratio, required }]); a logo that is not a PNG, JPEG or WebP, or is too large, names `logoBase64`.';

export const listCheckoutDesignsOperation = defineOperation({
  id: 'listCheckoutDesigns',
  method: 'GET',
  path: '/api/CheckoutDesign',
  tag: 'Checkout designs',
  summary: 'List checkout designs',
  scope: 'payment_links:read',
  query: listQuery(['createdAt', 'displayName'], { isDefault: BooleanQuery.optional() }),
  response: pageOf(CheckoutDesignResponse),
});

export const createCheckoutDesignOperation = defineOperation({
  id: 'createCheckoutDesign',
  method: 'POST',
  path: '/api/CheckoutDesign',
  tag: 'Checkout designs',
  summary: 'Create a checkout design',
  description:
    "How the hosted checkout, success page, customer portal and customer emails look: a payment link's `designId` picks one, and the seller's default design styles everything else. `isDefault: true` moves the default here.",
  scope: 'payment_links:write',
  body: CreateCheckoutDesignBody,
  response: CheckoutDesignResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 400: contrastAnswer },
});

export const getCheckoutDesignOperation = defineOperation({
  id: 'getCheckoutDesign',
  method: 'GET',
  path: '/api/CheckoutDesign/{designId}',
  tag: 'Checkout designs',
  summary: 'Retrieve a checkout design',
  scope: 'payment_links:read',
  params: CheckoutDesignParams,
  response: CheckoutDesignResponse,
});

export const updateCheckoutDesignOperation = defineOperation({
  id: 'updateCheckoutDesign',
  method: 'PUT',
  path: '/api/CheckoutDesign/{designId}',
  tag: 'Checkout designs',
  summary: 'Update a checkout design',
  description: 'Fields left out keep their values; `null` removes the logo or a link. Colours are checked together, as they will be shown.',
  scope: 'payment_links:write',
  params: CheckoutDesignParams,
  body: UpdateCheckoutDesignBody,
  response: CheckoutDesignResponse,
  answers: { 400: contrastAnswer },
});
