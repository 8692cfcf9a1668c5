import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { coupons, promotionCodes } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError, invalidField, notFound } from '../errors';
import { couponIsValid, findCouponRow, toCouponResponse, type CouponRow } from './coupons';
import { discountAmount } from './discount';
import type { CreatePromotionCodeBody, UpdatePromotionCodeBody } from './schemas';

type PromotionCodeRow = typeof promotionCodes.$inferSelect;

export function toPromotionCodeResponse(row: PromotionCodeRow, coupon: CouponRow) {
  return {
    id: row.id,
    code: row.code,
    couponId: row.couponId,
    coupon: toCouponResponse(coupon),
    active: row.active,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createPromotionCode(tx: Db, merchantId: string, input: z.output<typeof CreatePromotionCodeBody>) {
  const coupon = await findCouponRow(tx, merchantId, input.couponId, 'couponId');
  const at = now();
  if (input.expiresAt && input.expiresAt <= at) throw invalidField('expiresAt', 'expiresAt must be in the future.');
  const [taken] = await tx
    .select({ id: promotionCodes.id })
    .from(promotionCodes)
    .where(and(eq(promotionCodes.merchantId, merchantId), sql`upper(${promotionCodes.code}) = ${input.code.toUpperCase()}`));
  if (taken) {
    throw new ApiError('CONFLICT', `Promotion code '${input.code}' already exists (${taken.id}).`, {
      errors: [{ path: 'code', message: 'Already used by another promotion code (codes are case-insensitive).' }],
    });
  }
  const [row] = await tx
    .insert(promotionCodes)
    .values({
      id: newId('promotionCode'),
      merchantId,
      couponId: coupon.id,
      code: input.code,
      active: input.active,
      expiresAt: input.expiresAt ?? null,
      maxRedemptions: input.maxRedemptions ?? null,
      metadata: input.metadata,
      createdAt: at,
    })
    .returning();
  return toPromotionCodeResponse(row!, coupon);
}

async function findPromotionCodeRow(db: Db, merchantId: string, promotionCodeId: string) {
  const [row] = await db
    .select()
    .from(promotionCodes)
    .innerJoin(coupons, eq(coupons.id, promotionCodes.couponId))
    .where(and(eq(promotionCodes.id, promotionCodeId), eq(promotionCodes.merchantId, merchantId)));
  if (!row) throw notFound('promotion code', promotionCodeId);
  return row;
}

export async function getPromotionCode(db: Db, merchantId: string, promotionCodeId: string) {
  const row = await findPromotionCodeRow(db, merchantId, promotionCodeId);
  return toPromotionCodeResponse(row.promotion_codes, row.coupons);
}

export async function updatePromotionCode(tx: Db, merchantId: string, promotionCodeId: string, input: z.output<typeof UpdatePromotionCodeBody>) {
  const found = await findPromotionCodeRow(tx, merchantId, promotionCodeId);
  // Only the fields sent change: with none (`{}` or no body) there is nothing to write.
  if (Object.keys(input).length === 0) return toPromotionCodeResponse(found.promotion_codes, found.coupons);
  await tx
    .update(promotionCodes)
    .set(input)
    .where(and(eq(promotionCodes.id, promotionCodeId), eq(promotionCodes.merchantId, merchantId)));
  return getPromotionCode(tx, merchantId, promotionCodeId);
}

export async function listPromotionCodes(db: Db, merchantId: string, query: PageRequest & { code?: string; couponId?: string; active?: boolean }) {
  const page = await paginate(db, promotionCodes, {
    ...query,
    scope: [eq(promotionCodes.merchantId, merchantId)],
    where: [
      query.code ? sql`upper(${promotionCodes.code}) = ${query.code.toUpperCase()}` : undefined,
      query.couponId ? eq(promotionCodes.couponId, query.couponId) : undefined,
      query.active === undefined ? undefined : eq(promotionCodes.active, query.active),
    ],
    orderBy: [promotionCodes.createdAt, promotionCodes.id],
  });
  const couponRows = page.data.length
    ? await db
        .select()
        .from(coupons)
        .where(and(eq(coupons.merchantId, merchantId), inArray(coupons.id, [...new Set(page.data.map((row) => row.couponId))])))
    : [];
  const byId = new Map(couponRows.map((c) => [c.id, c]));
  return { ...page, data: page.data.map((row) => toPromotionCodeResponse(row, byId.get(row.couponId)!)) };
}

export interface AppliedPromotion {
  promotionCodeId: string;
  couponId: string;
  code: string;
  discount: number;
  /** What decides the discount on each period of a subscription. */
  coupon: Pick<CouponRow, 'percentOff' | 'amountOff' | 'durationInMonths'> & { duration: 'once' | 'repeating' | 'forever' };
}

/**
 * Checks a code a customer typed against a purchase without redeeming it (the hosted page's
 * "Apply"). Every reason a code cannot be used is a 400 on `promotionCode` that says why.
 */
export async function quotePromotionCode(
  db: Db,
  merchantId: string,
  code: string,
  purchase: { currency: string; subtotal: number },
): Promise<AppliedPromotion> {
  const [row] = await db
    .select()
    .from(promotionCodes)
    .innerJoin(coupons, eq(coupons.id, promotionCodes.couponId))
    .where(and(eq(promotionCodes.merchantId, merchantId), sql`upper(${promotionCodes.code}) = ${code.trim().toUpperCase()}`));
  const refuse = (message: string) => invalidField('promotionCode', message);
  if (!row) throw refuse(`Promotion code '${code}' does not exist.`);
  const promo = row.promotion_codes;
  const coupon = row.coupons;
  const at = now();
  if (!promo.active) throw refuse(`Promotion code '${promo.code}' is no longer active.`);
  if (promo.expiresAt && promo.expiresAt <= at) throw refuse(`Promotion code '${promo.code}' has expired.`);
  if (promo.maxRedemptions !== null && promo.timesRedeemed >= promo.maxRedemptions) {
    throw refuse(`Promotion code '${promo.code}' has been used the maximum number of times.`);
  }
  if (!couponIsValid(coupon, at)) throw refuse(`Promotion code '${promo.code}' can no longer be redeemed.`);
  if (coupon.amountOff !== null && coupon.currency !== purchase.currency) {
    throw refuse(`Promotion code '${promo.code}' applies to ${coupon.currency} purchases only.`);
  }
  return {
    promotionCodeId: promo.id,
    couponId: coupon.id,
    code: promo.code,
    discount: discountAmount(coupon, purchase.subtotal),
    coupon: {
      percentOff: coupon.percentOff,
      amountOff: coupon.amountOff,
      duration: coupon.duration as AppliedPromotion['coupon']['duration'],
      durationInMonths: coupon.durationInMonths,
    },
  };
}

/**
 * Redeems a code for a purchase. The counters move by conditional updates, so concurrent
 * checkouts can never redeem a code or coupon more often than its maxRedemptions.
 */
export async function redeemPromotionCode(
  tx: Db,
  merchantId: string,
  code: string,
  purchase: { currency: string; subtotal: number },
): Promise<AppliedPromotion> {
  const quote = await quotePromotionCode(tx, merchantId, code, purchase);
  const at = now();
  const promo = await tx
    .update(promotionCodes)
    .set({ timesRedeemed: sql`${promotionCodes.timesRedeemed} + 1` })
    .where(
      and(
        eq(promotionCodes.id, quote.promotionCodeId),
        eq(promotionCodes.active, true),
        or(isNull(promotionCodes.expiresAt), gt(promotionCodes.expiresAt, at)),
        or(isNull(promotionCodes.maxRedemptions), lt(promotionCodes.timesRedeemed, promotionCodes.maxRedemptions)),
      ),
    )
    .returning({ id: promotionCodes.id });
  const coupon = await tx
    .update(coupons)
    .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1` })
    .where(
      and(
        eq(coupons.id, quote.couponId),
        or(isNull(coupons.redeemBy), gt(coupons.redeemBy, at)),
        or(isNull(coupons.maxRedemptions), lt(coupons.timesRedeemed, coupons.maxRedemptions)),
      ),
    )
    .returning({ id: coupons.id });
  if (!promo.length || !coupon.length) {
    throw invalidField('promotionCode', `Promotion code '${quote.code}' has been used the maximum number of times.`);
  }
  return quote;
}

/** Gives a redemption back when the payment it was for failed. */
export async function releasePromotionRedemption(tx: Db, promotionCodeId: string, couponId: string): Promise<void> {
  await tx
    .update(promotionCodes)
    .set({ timesRedeemed: sql`greatest(${promotionCodes.timesRedeemed} - 1, 0)` })
    .where(eq(promotionCodes.id, promotionCodeId));
  await tx
    .update(coupons)
    .set({ timesRedeemed: sql`greatest(${coupons.timesRedeemed} - 1, 0)` })
    .where(eq(coupons.id, couponId));
}
