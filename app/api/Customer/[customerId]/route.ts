import { apiRoute } from '@/lib/server/http/api-route';
import { getCustomerOperation, updateCustomerOperation } from '@/lib/customers/api';
import { getCustomer, updateCustomer } from '@/lib/customers/customers';

export const GET = apiRoute(getCustomerOperation, ({ db, merchantId, params }) => getCustomer(db, merchantId, params.customerId));

export const PUT = apiRoute(updateCustomerOperation, ({ db, merchantId, params, body }) => updateCustomer(db, merchantId, params.customerId, body));
