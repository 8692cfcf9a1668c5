import { apiRoute } from '@/lib/server/http/api-route';
import { getCustomerEntitlementsOperation } from '@/lib/usage/api';
import { getCustomerEntitlements } from '@/lib/usage/entitlement-view';

export const GET = apiRoute(getCustomerEntitlementsOperation, ({ db, merchantId, params }) => getCustomerEntitlements(db, merchantId, params.customerId));
