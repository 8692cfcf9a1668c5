import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import {
  CheckEntitlementBody,
  CheckEntitlementResponse,
  CreateEntitlementPolicyBody,
  EntitlementOverrideBody,
  EntitlementOverrideResponse,
  EntitlementPolicyResponse,
} from './schemas';

const PriceParams = idParam('priceId', 'price');
const CustomerParams = idParam('customerId', 'cus');

export const listEntitlementPoliciesOperation = defineOperation({
  id: 'listEntitlementPolicies',
  method: 'GET',
  path: '/api/Price/{priceId}/EntitlementPolicy',
  tag: 'Entitlements',
  summary: "List a price's entitlement policies",
  scope: 'entitlements:read',
  params: PriceParams,
  query: listQuery(['createdAt', 'feature']),
  response: pageOf(EntitlementPolicyResponse),
});

export const createEntitlementPolicyOperation = defineOperation({
  id: 'createEntitlementPolicy',
  method: 'POST',
  path: '/api/Price/{priceId}/EntitlementPolicy',
  tag: 'Entitlements',
  summary: 'Attach an entitlement policy to a price',
  description: 'One policy per feature and price; a second one for the same feature answers 409.',
  scope: 'entitlements:write',
  params: PriceParams,
  body: CreateEntitlementPolicyBody,
  response: EntitlementPolicyResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 409: 'CONFLICT: the price already has a policy for this feature.' },
});

export const setEntitlementOverrideOperation = defineOperation({
  id: 'setEntitlementOverride',
  method: 'POST',
  path: '/api/Customer/{customerId}/EntitlementOverride',
  tag: 'Entitlements',
  summary: "Override a customer's entitlement for one feature",
  description: 'Replaces any earlier override of the same feature (200) or creates one (201). Overrides win over price policies. Emits `entitlement.changed`.',
  scope: 'entitlements:write',
  params: CustomerParams,
  body: EntitlementOverrideBody,
  response: EntitlementOverrideResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 200: { description: 'An override for this feature existed and was replaced.', schema: EntitlementOverrideResponse } },
});

export const checkEntitlementOperation = defineOperation({
  id: 'checkEntitlement',
  method: 'POST',
  path: '/api/Customer/{customerId}/Entitlement/Check',
  tag: 'Usage',
  summary: 'Check (and consume) an entitlement',
  description:
    'Answers 200 `{ allowed, remaining, … }`. With `consume: true` it is an atomic check-and-consume: the usage is recorded only if allowed (from the limit first, then credits), ' +
    'and concurrent callers never overdraw a limit or a credit balance. Consuming emits what `POST /api/Usage` emits.',
  scope: 'entitlements:write',
  params: CustomerParams,
  body: CheckEntitlementBody,
  response: CheckEntitlementResponse,
  answers: { 409: 'CONFLICT: with `consume`, the `id` is being recorded by another request or was recorded with another body.' },
});
