import { eq, and, asc, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { entitlementPolicies } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError } from '../errors';
import { findPriceRow } from '../catalog/prices';
import type { CreateEntitlementPolicyBody } from './schemas';

type PolicyRow = typeof entitlementPolicies.$inferSelect;

export function toEntitlementPolicyResponse(row: PolicyRow) {
  return {
    id: row.id,
    priceId: row.priceId,
    feature: row.feature,
    allowed: row.allowed,
    limit: row.limit,
    limitAmount: row.limitAmount,
    creditGrantAmount: row.creditGrantAmount,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createEntitlementPolicy(tx: Db, merchantId: string, priceId: string, input: z.output<typeof CreateEntitlementPolicyBody>) {
  await findPriceRow(tx, merchantId, priceId);
  const [row] = await tx
    .insert(entitlementPolicies)
    .values({
      id: newId('entitlementPolicy'),
      merchantId,
      priceId,
      feature: input.feature,
      allowed: input.allowed,
      limit: input.limit ?? null,
      limitAmount: input.limitAmount ?? null,
      creditGrantAmount: input.creditGrantAmount ?? null,
      createdAt: now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    throw new ApiError('CONFLICT', `This price already has a policy for feature '${input.feature}'.`, {
      errors: [{ path: 'feature', message: 'Already has a policy on this price.' }],
    });
  }
  return toEntitlementPolicyResponse(row);
}

export async function listEntitlementPolicies(db: Db, merchantId: string, priceId: string, query: PageRequest & { orderBy: 'createdAt' | 'feature' }) {
  await findPriceRow(db, merchantId, priceId);
  const page = await paginate(db, entitlementPolicies, {
    ...query,
    scope: [eq(entitlementPolicies.merchantId, merchantId), eq(entitlementPolicies.priceId, priceId)],
    where: [],
    orderBy: [query.orderBy === 'feature' ? entitlementPolicies.feature : entitlementPolicies.createdAt, entitlementPolicies.id],
  });
  return mapPage(page, toEntitlementPolicyResponse);
}

/** The policies of several prices at once (for the console's product page), by price id, by feature. */
export async function listPoliciesOfPrices(db: Db, merchantId: string, priceIds: string[]) {
  const byPrice = new Map<string, ReturnType<typeof toEntitlementPolicyResponse>[]>();
  if (priceIds.length === 0) return byPrice;
  const rows = await db
    .select()
    .from(entitlementPolicies)
    .where(and(eq(entitlementPolicies.merchantId, merchantId), inArray(entitlementPolicies.priceId, priceIds)))
    .orderBy(asc(entitlementPolicies.feature));
  for (const row of rows) byPrice.set(row.priceId, [...(byPrice.get(row.priceId) ?? []), toEntitlementPolicyResponse(row)]);
  return byPrice;
}
