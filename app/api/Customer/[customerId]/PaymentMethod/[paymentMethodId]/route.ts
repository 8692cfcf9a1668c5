import { apiRoute } from '@/lib/server/http/api-route';
import { detachPaymentMethodOperation } from '@/lib/payments/api';
import { toPaymentMethodResponse } from '@/lib/payments/payment-methods';
import { removePaymentMethod } from '@/lib/subscriptions/payment-methods';

export const DELETE = apiRoute(detachPaymentMethodOperation, async ({ db, merchantId, params, apiKeyId }) =>
  toPaymentMethodResponse(await removePaymentMethod(db, merchantId, params.customerId, params.paymentMethodId, `api_key:${apiKeyId}`)),
);
