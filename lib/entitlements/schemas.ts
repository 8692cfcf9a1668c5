import { z } from 'zod';
import { FeatureKey, MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';

export const ENTITLEMENT_ALLOWED = ['Unlimited', 'Limited', 'Denied'] as const;
export type EntitlementAllowed = (typeof ENTITLEMENT_ALLOWED)[number];

export const Feature = FeatureKey.default('default').meta({ description: 'The feature or meter this entitlement governs.', example: 'api_calls' });

const entitlementFields = {
  feature: Feature,
  allowed: z.enum(ENTITLEMENT_ALLOWED).meta({
    description: 'Unlimited: always allowed. Limited: allowed up to `limit` units and/or `limitAmount` per period. Denied: never allowed.',
  }),
  limit: PositiveInt32.optional().meta({ description: 'Units allowed per billing period (Limited only).' }),
  limitAmount: MinorAmount.optional().meta({ description: 'Spend allowed per period, in minor units of the price currency (Limited only).' }),
};

type LimitFields = { allowed: EntitlementAllowed; limit?: number; limitAmount?: number };

function checkLimits(value: LimitFields, ctx: z.RefinementCtx) {
  if (value.allowed === 'Limited' && value.limit === undefined && value.limitAmount === undefined) {
    ctx.addIssue({ code: 'custom', path: ['limit'], message: 'Limited needs limit or limitAmount.' });
  }
  if (value.allowed !== 'Limited') {
    for (const field of ['limit', 'limitAmount'] as const) {
      if (value[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `Only a Limited entitlement takes ${field}.` });
    }
  }
}

export const CreateEntitlementPolicyBody = z
  .strictObject({
    ...entitlementFields,
    creditGrantAmount: MinorAmount.optional().meta({ description: 'Credits granted to the customer at each paid period.' }),
  })
  .superRefine(checkLimits);

export const EntitlementOverrideBody = z.strictObject(entitlementFields).superRefine(checkLimits);

export const EntitlementPolicyResponse = z.object({
  id: z.string(),
  priceId: z.string(),
  feature: z.string(),
  allowed: z.enum(ENTITLEMENT_ALLOWED),
  limit: z.int().nullable(),
  limitAmount: z.int().nullable(),
  creditGrantAmount: z.int().nullable(),
  createdAt: Timestamp,
});

export const EntitlementOverrideResponse = z.object({
  id: z.string(),
  customerId: z.string(),
  feature: z.string(),
  allowed: z.enum(ENTITLEMENT_ALLOWED),
  limit: z.int().nullable(),
  limitAmount: z.int().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
