import { z } from 'zod';
import { DateTime, FeatureKey, MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';

/** What an entitlement allows: the words of policies and overrides (lib/entitlements) and of every entitlement answer. */
export const ENTITLEMENT_ALLOWED = ['Unlimited', 'Limited', 'Denied'] as const;
export type EntitlementAllowed = (typeof ENTITLEMENT_ALLOWED)[number];

export const Feature = FeatureKey.default('default').meta({ description: 'The feature or meter this entitlement governs.', example: 'api_calls' });

export const MAX_BATCH_RECORDS = 1_000;

export const ProducerId = z
  .string()
  .min(1)
  .max(255)
  .meta({ description: 'Your deduplication key, unique among your usage records: the same id again counts nothing twice.', example: 'msg_81f3' });

export const Properties = z
  .record(z.string().max(40), z.unknown())
  .refine((value) => Object.keys(value).length <= 50, 'At most 50 properties.')
  .meta({ description: 'Free-form facts about the usage (model, region…), kept with the record.' });

export const RecordUsageBody = z.strictObject({
  customerId: z.string().min(1).max(64),
  feature: Feature,
  quantity: PositiveInt32.default(1).meta({ description: 'Units used (default 1).' }),
  amount: MinorAmount.default(0).meta({ description: 'Spend of this usage in minor units, counted against `limitAmount` (default 0).' }),
  id: ProducerId.optional(),
  timestamp: DateTime.optional().meta({ description: 'When it happened (default: now on the customer’s clock).' }),
  properties: Properties.optional(),
});

export const RecordUsageBatchBody = z.strictObject({
  records: z
    .array(RecordUsageBody.extend({ id: ProducerId }))
    .min(1)
    .max(MAX_BATCH_RECORDS)
    .meta({ description: `1 to ${MAX_BATCH_RECORDS} records, each with its own \`id\`.` }),
});

export const CreateCreditGrantBody = z.strictObject({
  feature: Feature,
  amount: PositiveInt32.meta({ description: 'Credit units granted.' }),
  expiresAt: DateTime.optional().meta({ description: 'After this moment what is left of the grant stops counting.' }),
  reason: z.string().min(1).max(500).meta({ example: 'Credit pack: 500 messages' }),
});

export const UsageRecordResponse = z.object({
  id: z.string(),
  externalId: z.string().nullable().meta({ description: 'The `id` you sent.' }),
  customerId: z.string(),
  feature: z.string(),
  quantity: z.int(),
  amount: z.int(),
  creditsUsed: z.int().meta({ description: 'Units paid for with credits.' }),
  periodKey: z.string(),
  properties: z.record(z.string(), z.unknown()),
  timestamp: Timestamp,
  reversedAt: Timestamp.nullable(),
  createdAt: Timestamp,
});

export const ENTITLEMENT_SOURCES = ['override', 'subscription', 'purchase', 'none'] as const;

export const EntitlementResponse = z.object({
  feature: z.string(),
  allowed: z.boolean().meta({ description: 'Whether one more unit may be used now.' }),
  access: z.enum([...ENTITLEMENT_ALLOWED, 'None']).meta({ description: 'None: no policy or override; the feature runs on credits alone (source `none`).' }),
  limit: z.int().nullable(),
  limitAmount: z.int().nullable(),
  used: z.int(),
  spent: z.int(),
  remaining: z.int().nullable().meta({ description: 'Units still available: what is left of the limit plus the credit balance; null when Unlimited.' }),
  creditBalance: z.int(),
  periodStart: Timestamp.nullable(),
  periodEnd: Timestamp.nullable(),
  source: z.object({ type: z.enum(ENTITLEMENT_SOURCES), id: z.string().nullable() }),
});

export const CustomerEntitlementsResponse = z.object({ customerId: z.string(), data: z.array(EntitlementResponse) });

export const RecordUsageResponse = z.object({ usage: UsageRecordResponse, entitlement: EntitlementResponse });

export const BatchItemResponse = z.object({
  index: z.int(),
  id: z.string(),
  status: z.int().meta({ description: '201 recorded, 200 already recorded with the same body, 409 already recorded with another body, 404 unknown customer.' }),
  usage: UsageRecordResponse.nullable(),
  error: z.string().nullable(),
});

export const RecordUsageBatchResponse = z.object({ data: z.array(BatchItemResponse), recorded: z.int(), duplicates: z.int(), failed: z.int() });

export const CreditGrantResponse = z.object({
  id: z.string(),
  customerId: z.string(),
  feature: z.string(),
  source: z.enum(['period', 'purchase', 'manual']),
  amount: z.int(),
  remaining: z.int(),
  expiresAt: Timestamp.nullable(),
  reason: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  periodIndex: z.int().nullable(),
  createdAt: Timestamp,
});

export const CreditBalanceResponse = z.object({
  customerId: z.string(),
  data: z.array(z.object({ feature: z.string(), balance: z.int(), grants: z.array(CreditGrantResponse) })),
});

export const ListUsageFilters = {
  customerId: z.string().min(1).max(64).optional(),
  feature: z.string().min(1).max(64).optional(),
  from: DateTime.optional().meta({ description: 'Records whose timestamp is at or after this.' }),
  to: DateTime.optional().meta({ description: 'Records whose timestamp is before this.' }),
};

export const UsageSummaryQuery = z.strictObject({
  ...ListUsageFilters,
  groupBy: z.enum(['day', 'period']).default('day'),
});

export const UsageSummaryResponse = z.object({
  groupBy: z.enum(['day', 'period']),
  data: z.array(
    z.object({
      feature: z.string(),
      key: z.string().meta({ description: 'The day (YYYY-MM-DD) or the period key.' }),
      start: Timestamp.nullable(),
      end: Timestamp.nullable(),
      quantity: z.int(),
      amount: z.int(),
      records: z.int(),
    }),
  ),
});
