import { z } from 'zod';
import { Currency, Metadata, MinorAmount, PositiveInt32, Timestamp } from '../http/schemas';

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

export const PRICE_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/** Longest billing period a recurring price may have: three years, in each interval's units. */
export const MAX_INTERVAL_COUNT: Record<PriceInterval, number> = { day: 1095, week: 156, month: 36, year: 3 };

export const CreatePriceBody = z
  .strictObject({
    productId: z.string().min(1),
    type: z.enum(['OneTime', 'Recurring']),
    amount: MinorAmount.meta({ description: 'Integer minor units; the value itself for zero-decimal currencies.' }),
    currency: Currency,
    interval: z.enum(PRICE_INTERVALS).optional(),
    intervalCount: PositiveInt32.optional().meta({ description: 'Periods per billing cycle (Recurring; default 1).' }),
    trialDays: z.int().min(0).max(730).optional().meta({ description: 'Free days before the first charge (Recurring).' }),
  })
  .superRefine((price, ctx) => {
    if (price.type === 'Recurring') {
      if (!price.interval) ctx.addIssue({ code: 'custom', path: ['interval'], message: 'A Recurring price needs an interval.' });
      const max = price.interval ? MAX_INTERVAL_COUNT[price.interval] : undefined;
      if (max !== undefined && price.intervalCount !== undefined && price.intervalCount > max) {
        ctx.addIssue({ code: 'custom', path: ['intervalCount'], message: `At most ${max} for interval '${price.interval}' (three years).` });
      }
      return;
    }
    for (const field of ['interval', 'intervalCount', 'trialDays'] as const) {
      if (price[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `A OneTime price takes no ${field}.` });
    }
  });

export const UpdatePriceBody = z.strictObject({
  active: z.boolean().meta({ description: 'The only field a price changes after creation.' }),
});

export const PriceResponse = z.object({
  id: z.string(),
  productId: z.string(),
  type: z.enum(['OneTime', 'Recurring']),
  amount: z.int(),
  currency: z.string(),
  interval: z.enum(PRICE_INTERVALS).nullable(),
  intervalCount: z.int().nullable(),
  trialDays: z.int().nullable(),
  active: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
