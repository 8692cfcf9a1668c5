import { apiRoute } from '@/lib/http/api-route';
import { listPaymentMethodsOperation } from '@/lib/customers/api';
import { listPaymentMethods } from '@/lib/payments/payment-methods';

export const GET = apiRoute(listPaymentMethodsOperation, ({ db, merchantId, params, query }) =>
  listPaymentMethods(db, merchantId, params.customerId, query),
);
