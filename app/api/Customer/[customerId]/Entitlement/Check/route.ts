import { apiRoute } from '@/lib/server/http/api-route';
import { checkEntitlementOperation } from '@/lib/entitlements/api';
import { checkEntitlement } from '@/lib/entitlements/check';

export const POST = apiRoute(checkEntitlementOperation, ({ db, merchantId, params, body }) => checkEntitlement(db, merchantId, params.customerId, body));
