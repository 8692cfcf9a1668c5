import { apiRoute } from '@/lib/server/http/api-route';
import { createCustomValueOperation, listCustomValuesOperation, updateCustomValueOperation } from '@/lib/customers/api';
import { createCustomValue, listCustomValues, updateCustomValue } from '@/lib/customers/custom-values';

export const GET = apiRoute(listCustomValuesOperation, ({ db, merchantId, params, query }) => listCustomValues(db, merchantId, params.customerId, query));

export const POST = apiRoute(createCustomValueOperation, ({ db, merchantId, params, body }) => createCustomValue(db, merchantId, params.customerId, body));

export const PUT = apiRoute(updateCustomValueOperation, ({ db, merchantId, params, body }) => updateCustomValue(db, merchantId, params.customerId, body));
