import { apiRoute } from '@/lib/server/http/api-route';
import { createEntitlementPolicyOperation, listEntitlementPoliciesOperation } from '@/lib/entitlements/api';
import { createEntitlementPolicy, listEntitlementPolicies } from '@/lib/entitlements/policies';

export const GET = apiRoute(listEntitlementPoliciesOperation, ({ db, merchantId, params, query }) =>
  listEntitlementPolicies(db, merchantId, params.priceId, query),
);

export const POST = apiRoute(createEntitlementPolicyOperation, ({ db, merchantId, params, body }) =>
  createEntitlementPolicy(db, merchantId, params.priceId, body),
);
