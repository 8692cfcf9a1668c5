import { apiRoute } from '@/lib/server/http/api-route';
import { detachPaymentMethodOperation } from '@/lib/payments/api';
import { toPaymentMethodResponse } from '@/lib/payments/payment-methods';
import { removePaymentMethod } from '@/lib/saved-cards/saved-cards';

export const DELETE = apiRoute(detachPaymentMethodOperation, async ({ db, merchantId, params, apiKeyId }) =>
  toPaymentMethodResponse(await removePaymentMethod(db, merchantId, params.customerId, params.paymentMethodId, `api_key:${apiKeyId}`)),
);
