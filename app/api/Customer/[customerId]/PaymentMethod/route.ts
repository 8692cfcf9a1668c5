import { apiRoute, phasedApiRoute } from '@/lib/server/http/api-route';
import { attachPaymentMethodOperation, listPaymentMethodsOperation } from '@/lib/payments/api';
import { listPaymentMethods } from '@/lib/payments/payment-methods';
import { attachPaymentMethod } from '@/lib/saved-cards/saved-cards';

export const GET = apiRoute(listPaymentMethodsOperation, ({ db, merchantId, params, query }) => listPaymentMethods(db, merchantId, params.customerId, query));

export const POST = phasedApiRoute(attachPaymentMethodOperation, ({ phases, merchantId, params, body, apiKeyId }) =>
  attachPaymentMethod(phases, merchantId, params.customerId, body, `api_key:${apiKeyId}`),
);
