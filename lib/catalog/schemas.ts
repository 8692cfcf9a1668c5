import { z } from 'zod';
import { Currency, FeatureKey, Metadata, MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';
import { AGGREGATIONS, PRICE_INTERVALS, TIERS_MODES, USAGE_TYPES } from './price-options';

export { AGGREGATIONS, PRICE_INTERVALS, TIERS_MODES, USAGE_TYPES };
import { DECIMAL_AMOUNT_PATTERN } from '../money/decimal';

export const CreateProductBody = z.strictObject({
  name: z.string().trim().min(1).max(250),
  description: z.string().max(5000).nullable().optional(),
  active: z.boolean().default(true),
  metadata: Metadata.default({}),
});

export const UpdateProductBody = z.strictObject({
  name: z.string().trim().min(1).max(250).optional(),
  description: z.string().max(5000).nullable().optional(),
  active: z.boolean().optional(),
  metadata: Metadata.optional(),
});

export const ProductResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/** Longest billing period a recurring price may have: three years, in each interval's units. */
export const MAX_INTERVAL_COUNT: Record<PriceInterval, number> = { day: 1095, week: 156, month: 36, year: 3 };

/** Most tiers a metered price may have. */
export const MAX_TIERS = 20;

const UnitAmountDecimal = z
  .string()
  .regex(DECIMAL_AMOUNT_PATTERN, 'A decimal of minor units with at most 12 digits after the point, e.g. "0.0004".')
  .meta({ description: 'Per-unit price in minor units, as a decimal string with up to 12 decimals (fractions of a minor unit).', example: '0.0004' });

const MeteredFeature = FeatureKey.meta({
  description: 'The usage feature (meter) this metered price bills: the `feature` of usage records.',
  example: 'api_calls',
});

export const PriceTierBody = z.strictObject({
  upTo: PositiveInt32.nullable().meta({ description: 'Last unit (or package) of this tier, inclusive; null for the last tier.' }),
  unitAmount: MinorAmount.optional(),
  unitAmountDecimal: UnitAmountDecimal.optional(),
  flatAmount: MinorAmount.optional().meta({ description: 'Added once when the quantity reaches this tier.' }),
});

/** Tax rates (txr_) for a price's lines, in the order invoices print them; [] uses the seller's defaults. */
export const TaxRateIds = z
  .array(z.string().regex(/^txr_/, 'A tax rate id (txr_…).'))
  .max(5)
  .refine((ids) => new Set(ids).size === ids.length, 'Each tax rate once.')
  .meta({ description: 'Tax rates (`txr_…`, at most 5) for this price\'s lines; empty or absent: the seller\'s default tax rates (docs/invoices.md, "Tax").' });

export const CreatePriceBody = z
  .strictObject({
    productId: z.string().min(1),
    type: z.enum(['OneTime', 'Recurring']),
    amount: MinorAmount.optional().meta({
      description:
        'Integer minor units; the value itself for zero-decimal currencies. Required for licensed prices; for a metered price, the price of one unit (or package).',
    }),
    currency: Currency,
    interval: z.enum(PRICE_INTERVALS).optional(),
    intervalCount: PositiveInt32.optional().meta({ description: 'Periods per billing cycle (Recurring; default 1).' }),
    trialDays: z.int().min(0).max(730).optional().meta({ description: 'Free days before the first charge (Recurring).' }),
    usageType: z.enum(USAGE_TYPES).default('licensed').meta({
      description: '`licensed` (default): `amount` billed in advance each period. `metered`: the usage of `feature` billed in arrears at each period end.',
    }),
    feature: MeteredFeature.optional(),
    aggregation: z.enum(AGGREGATIONS).optional().meta({
      description:
        "Metered: how a period's usage records make its quantity: `sum` of quantities (default), `max` quantity, `last` quantity, `unique` count of values of `aggregationProperty`.",
    }),
    aggregationProperty: z.string().min(1).max(40).optional().meta({
      description: 'With `aggregation: "unique"`: the key of the usage records\' `properties` whose distinct values are counted.',
      example: 'user_id',
    }),
    unitAmountDecimal: UnitAmountDecimal.optional(),
    tiers: z.array(PriceTierBody).min(1).max(MAX_TIERS).optional().meta({
      description: 'Metered: tiers by ascending `upTo`, the last with `upTo: null`; each with `unitAmount` or `unitAmountDecimal` and/or `flatAmount`.',
    }),
    tiersMode: z
      .enum(TIERS_MODES)
      .optional()
      .meta({ description: 'With `tiers`: `graduated` (each tier prices its own units) or `volume` (the tier of the total prices all).' }),
    packageSize: PositiveInt32.optional().meta({ description: 'Metered: bill per started block of this many units.' }),
    taxRateIds: TaxRateIds.optional(),
  })
  .superRefine((price, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (price.type === 'Recurring') {
      if (!price.interval) issue(['interval'], 'A Recurring price needs an interval.');
      const max = price.interval ? MAX_INTERVAL_COUNT[price.interval] : undefined;
      if (max !== undefined && price.intervalCount !== undefined && price.intervalCount > max) {
        issue(['intervalCount'], `At most ${max} for interval '${price.interval}' (three years).`);
      }
    } else {
      for (const field of ['interval', 'intervalCount', 'trialDays'] as const) {
        if (price[field] !== undefined) issue([field], `A OneTime price takes no ${field}.`);
      }
    }
    if (price.usageType === 'metered') refineMetered(price, issue);
    else {
      if (price.amount === undefined) issue(['amount'], 'A licensed price needs an amount.');
      for (const field of METERED_ONLY_FIELDS) {
        if (price[field] !== undefined) issue([field], `Only a metered price (usageType "metered") takes ${field}.`);
      }
    }
  });

const METERED_ONLY_FIELDS = ['feature', 'aggregation', 'aggregationProperty', 'unitAmountDecimal', 'tiers', 'tiersMode', 'packageSize'] as const;

type PriceInput = {
  type: 'OneTime' | 'Recurring';
  amount?: number;
  trialDays?: number;
  feature?: string;
  aggregation?: (typeof AGGREGATIONS)[number];
  aggregationProperty?: string;
  unitAmountDecimal?: string;
  tiers?: z.output<typeof PriceTierBody>[];
  tiersMode?: (typeof TIERS_MODES)[number];
};

function refineMetered(price: PriceInput, issue: (path: (string | number)[], message: string) => void) {
  if (price.type !== 'Recurring') issue(['usageType'], 'A metered price must be Recurring: its usage is billed at each period end.');
  if (price.trialDays !== undefined) issue(['trialDays'], 'A metered price takes no trialDays: nothing is billed in advance.');
  if (price.feature === undefined) issue(['feature'], 'A metered price needs the feature whose usage it bills.');
  if (price.aggregation === 'unique' && price.aggregationProperty === undefined) {
    issue(['aggregationProperty'], 'aggregation "unique" needs the properties key whose distinct values are counted.');
  }
  if (price.aggregation !== 'unique' && price.aggregationProperty !== undefined)
    issue(['aggregationProperty'], 'Only aggregation "unique" takes aggregationProperty.');
  const given = (['amount', 'unitAmountDecimal', 'tiers'] as const).filter((field) => price[field] !== undefined);
  if (given.length === 0) issue(['amount'], 'A metered price needs one of amount, unitAmountDecimal or tiers.');
  for (const field of given.slice(1)) issue([field], `Give only one of amount, unitAmountDecimal or tiers (${given[0]} is given).`);
  if (price.tiers && price.tiersMode === undefined) issue(['tiersMode'], 'Tiers need a tiersMode: graduated or volume.');
  if (!price.tiers && price.tiersMode !== undefined) issue(['tiersMode'], 'tiersMode only goes with tiers.');
  if (price.tiers) refineTiers(price.tiers, issue);
}

function refineTiers(tiers: z.output<typeof PriceTierBody>[], issue: (path: (string | number)[], message: string) => void) {
  let previous = 0;
  for (const [index, tier] of tiers.entries()) {
    const last = index === tiers.length - 1;
    if (last && tier.upTo !== null) issue(['tiers', index, 'upTo'], 'The last tier has upTo: null (it covers everything above).');
    if (!last && tier.upTo === null) issue(['tiers', index, 'upTo'], 'Only the last tier has upTo: null.');
    if (tier.upTo !== null) {
      if (tier.upTo <= previous) issue(['tiers', index, 'upTo'], `upTo must be greater than the previous tier's (${previous}).`);
      previous = tier.upTo;
    }
    if (tier.unitAmount !== undefined && tier.unitAmountDecimal !== undefined) {
      issue(['tiers', index, 'unitAmountDecimal'], 'Give unitAmount or unitAmountDecimal, not both.');
    }
    if (tier.unitAmount === undefined && tier.unitAmountDecimal === undefined && tier.flatAmount === undefined) {
      issue(['tiers', index, 'unitAmount'], 'A tier needs unitAmount, unitAmountDecimal or flatAmount.');
    }
  }
}

export const UpdatePriceBody = z
  .strictObject({
    active: z.boolean().optional(),
    taxRateIds: TaxRateIds.optional(),
  })
  .refine((body) => body.active !== undefined || body.taxRateIds !== undefined, { message: 'Give active or taxRateIds.', path: ['active'] });

export const PriceResponse = z.object({
  id: z.string(),
  productId: z.string(),
  type: z.enum(['OneTime', 'Recurring']),
  amount: z
    .int()
    .meta({ description: 'Licensed: the price of a period. Metered: the price of one unit (or package); 0 when priced by unitAmountDecimal or tiers.' }),
  currency: z.string(),
  interval: z.enum(PRICE_INTERVALS).nullable(),
  intervalCount: z.int().nullable(),
  trialDays: z.int().nullable(),
  usageType: z.enum(USAGE_TYPES),
  feature: z.string().nullable().meta({ description: 'Metered: the usage feature billed.' }),
  aggregation: z.enum(AGGREGATIONS).nullable(),
  aggregationProperty: z.string().nullable(),
  unitAmountDecimal: z.string().nullable(),
  tiers: z
    .array(z.object({ upTo: z.int().nullable(), unitAmount: z.int().nullable(), unitAmountDecimal: z.string().nullable(), flatAmount: z.int().nullable() }))
    .nullable(),
  tiersMode: z.enum(TIERS_MODES).nullable(),
  packageSize: z.int().nullable(),
  taxRateIds: z.array(z.string()).meta({ description: "The tax rates of this price's lines; empty: the seller's default tax rates." }),
  active: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
