import { apiRoute } from '@/lib/server/http/api-route';
import { createCustomerOperation, listCustomersOperation } from '@/lib/customers/api';
import { createCustomer, listCustomers } from '@/lib/customers/customers';

export const GET = apiRoute(listCustomersOperation, ({ db, merchantId, query }) => listCustomers(db, merchantId, query));

export const POST = apiRoute(createCustomerOperation, ({ db, merchantId, body }) => createCustomer(db, merchantId, body));
