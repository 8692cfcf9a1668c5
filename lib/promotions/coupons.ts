import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { coupons } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { invalidField, notFound } from '../errors';
import type { CreateCouponBody } from './schemas';

export type CouponRow = typeof coupons.$inferSelect;

export function couponIsValid(row: CouponRow, at = now()): boolean {
  if (row.redeemBy && row.redeemBy <= at) return false;
  return row.maxRedemptions === null || row.timesRedeemed < row.maxRedemptions;
}

export function toCouponResponse(row: CouponRow) {
  return {
    id: row.id,
    name: row.name,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    currency: row.currency,
    duration: row.duration,
    durationInMonths: row.durationInMonths,
    redeemBy: row.redeemBy?.toISOString() ?? null,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    valid: couponIsValid(row),
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createCoupon(tx: Db, merchantId: string, input: z.output<typeof CreateCouponBody>) {
  const at = now();
  if (input.redeemBy && input.redeemBy <= at) throw invalidField('redeemBy', 'redeemBy must be in the future.');
  const [row] = await tx
    .insert(coupons)
    .values({
      id: newId('coupon'),
      merchantId,
      name: input.name ?? null,
      percentOff: input.percentOff ?? null,
      amountOff: input.amountOff ?? null,
      currency: input.currency ?? null,
      duration: input.duration,
      durationInMonths: input.durationInMonths ?? null,
      redeemBy: input.redeemBy ?? null,
      maxRedemptions: input.maxRedemptions ?? null,
      metadata: input.metadata,
      createdAt: at,
    })
    .returning();
  return toCouponResponse(row!);
}

export async function findCouponRow(db: Db, merchantId: string, couponId: string, fieldPath?: string): Promise<CouponRow> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, couponId), eq(coupons.merchantId, merchantId)));
  if (!row) throw notFound('coupon', couponId, fieldPath);
  return row;
}

export async function getCoupon(db: Db, merchantId: string, couponId: string) {
  return toCouponResponse(await findCouponRow(db, merchantId, couponId));
}

export async function listCoupons(db: Db, merchantId: string, query: PageRequest) {
  const page = await paginate(db, coupons, {
    ...query,
    scope: [eq(coupons.merchantId, merchantId)],
    where: [],
    orderBy: [coupons.createdAt, coupons.id],
  });
  return mapPage(page, toCouponResponse);
}
