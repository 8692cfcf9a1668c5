import { z } from 'zod';
import { MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';
import { ENTITLEMENT_ALLOWED, EntitlementResponse, Feature, ProducerId, Properties, UsageRecordResponse, type EntitlementAllowed } from '../usage/schemas';

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

export const CheckEntitlementBody = z.strictObject({
  feature: Feature,
  quantity: PositiveInt32.default(1),
  amount: MinorAmount.default(0),
  consume: z.boolean().default(false).meta({ description: 'Record the usage if (and only if) it is allowed, atomically.' }),
  id: ProducerId.optional(),
  properties: Properties.optional(),
});

export const CheckEntitlementResponse = EntitlementResponse.extend({
  customerId: z.string(),
  usage: UsageRecordResponse.nullable().meta({ description: 'The usage recorded by `consume: true` (null otherwise or when refused).' }),
  duplicate: z.boolean().meta({ description: 'True when `id` had already been recorded: nothing was counted again.' }),
});
