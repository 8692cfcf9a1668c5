import { apiRoute } from '@/lib/server/http/api-route';
import { respond } from '@/lib/http/respond';
import { setEntitlementOverrideOperation } from '@/lib/entitlements/api';
import { setEntitlementOverride } from '@/lib/entitlements/overrides';

export const POST = apiRoute(setEntitlementOverrideOperation, async ({ db, merchantId, params, body }) => {
  const { override, created } = await setEntitlementOverride(db, merchantId, params.customerId, body);
  return respond(created ? 201 : 200, override);
});
