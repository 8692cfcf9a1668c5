import { apiRoute } from '@/lib/server/http/api-route';
import { createCreditGrantOperation } from '@/lib/usage/api';
import { createCreditGrant } from '@/lib/usage/credits';

export const POST = apiRoute(createCreditGrantOperation, ({ db, merchantId, params, body }) => createCreditGrant(db, merchantId, params.customerId, body));
