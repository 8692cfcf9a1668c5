import { z } from 'zod';
import { Currency, DateTime, Metadata, PositiveInt32, Timestamp } from '../http/schemas';

export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;

export const CreateCouponBody = z
  .strictObject({
    name: z.string().trim().min(1).max(250).optional(),
    percentOff: z.int().min(1).max(100).optional().meta({ description: 'Whole percent off (1..100). Give this or amountOff.' }),
    amountOff: PositiveInt32.optional().meta({ description: 'Fixed amount off in minor units; needs currency.' }),
    currency: Currency.optional(),
    duration: z.enum(COUPON_DURATIONS).default('once').meta({
      description: 'How many billing periods of a subscription it applies to; a one-time payment is discounted once whatever the duration.',
    }),
    durationInMonths: z.int().min(1).max(120).optional().meta({ description: 'Months, for duration `repeating` only.' }),
    redeemBy: DateTime.optional().meta({ description: 'Last moment the coupon can be redeemed.' }),
    maxRedemptions: PositiveInt32.optional().meta({ description: 'Redemptions across all of its promotion codes.' }),
    metadata: Metadata.default({}),
  })
  .superRefine((coupon, ctx) => {
    if ((coupon.percentOff === undefined) === (coupon.amountOff === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'Give exactly one of percentOff or amountOff.' });
    }
    if (coupon.amountOff !== undefined && !coupon.currency) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'A fixed amount off needs a currency.' });
    }
    if (coupon.percentOff !== undefined && coupon.currency) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'A percent-off coupon applies to every currency; leave currency out.' });
    }
    if ((coupon.duration === 'repeating') !== (coupon.durationInMonths !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['durationInMonths'], message: 'durationInMonths is required for, and only for, duration repeating.' });
    }
  });

export const CouponResponse = z.object({
  id: z.string(),
  name: z.string().nullable(),
  percentOff: z.int().nullable(),
  amountOff: z.int().nullable(),
  currency: z.string().nullable(),
  duration: z.enum(COUPON_DURATIONS),
  durationInMonths: z.int().nullable(),
  redeemBy: Timestamp.nullable(),
  maxRedemptions: z.int().nullable(),
  timesRedeemed: z.int(),
  valid: z.boolean().meta({ description: 'False once redeemBy has passed or maxRedemptions is reached.' }),
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
});

export const PromotionCodeText = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/, '3 to 64 letters, digits, _ or -, starting with a letter or digit.');

export const CreatePromotionCodeBody = z.strictObject({
  couponId: z.string().min(1),
  code: PromotionCodeText.meta({ description: 'What customers type; unique per merchant, case-insensitive.' }),
  active: z.boolean().default(true),
  expiresAt: DateTime.optional(),
  maxRedemptions: PositiveInt32.optional(),
  metadata: Metadata.default({}),
});

export const UpdatePromotionCodeBody = z.strictObject({
  active: z.boolean().optional(),
  metadata: Metadata.optional(),
});

export const PromotionCodeResponse = z.object({
  id: z.string(),
  code: z.string(),
  couponId: z.string(),
  coupon: CouponResponse,
  active: z.boolean(),
  expiresAt: Timestamp.nullable(),
  maxRedemptions: z.int().nullable(),
  timesRedeemed: z.int(),
  metadata: z.record(z.string(), z.string()),
  createdAt: Timestamp,
});
