import { apiRoute } from '@/lib/server/http/api-route';
import { makeDefaultPaymentMethodOperation } from '@/lib/payments/api';
import { toPaymentMethodResponse } from '@/lib/payments/payment-methods';
import { makeDefaultPaymentMethod } from '@/lib/saved-cards/saved-cards';

export const POST = apiRoute(makeDefaultPaymentMethodOperation, async ({ db, merchantId, params, apiKeyId }) =>
  toPaymentMethodResponse(await makeDefaultPaymentMethod(db, merchantId, params.customerId, params.paymentMethodId, `api_key:${apiKeyId}`)),
);
