import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { creditGrants, entitlementPolicies } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent } from '../events/record-event';
import { findCustomerRow } from '../customers/customers';
import type { CreateCreditGrantBody } from './schemas';
import { resolveEntitlements } from './resolve';

type CreditGrantRow = typeof creditGrants.$inferSelect;

export function toCreditGrantResponse(row: CreditGrantRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    feature: row.feature,
    source: row.source,
    amount: row.amount,
    remaining: row.remaining,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    reason: row.reason,
    subscriptionId: row.subscriptionId,
    periodIndex: row.periodIndex,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A grant by hand (a credit pack sold by your backend, a goodwill gesture): `credit.granted`. */
export async function createCreditGrant(tx: Db, merchantId: string, customerId: string, input: z.output<typeof CreateCreditGrantBody>) {
  await findCustomerRow(tx, merchantId, customerId);
  const [row] = await tx
    .insert(creditGrants)
    .values({
      id: newId('creditGrant'),
      merchantId,
      customerId,
      source: 'manual',
      feature: input.feature,
      amount: input.amount,
      remaining: input.amount,
      expiresAt: input.expiresAt ?? null,
      reason: input.reason,
      createdAt: now(),
    })
    .returning();
  const grant = toCreditGrantResponse(row!);
  await recordEvent(tx, { merchantId, type: 'credit.granted', object: grant });
  return grant;
}

export interface PolicyGrantOrigin {
  merchantId: string;
  customerId: string;
  priceId: string;
  /** A paid subscription period (its credits expire with it) or a one-time purchase (no expiry). */
  origin: { subscriptionId: string; periodIndex: number; periodEnd: Date } | { checkoutId: string };
}

/**
 * The credits of a price's policies with a `creditGrantAmount`: once per paid period (unique
 * per subscription, period and feature) or per purchase (unique per checkout and feature),
 * each with `credit.granted`.
 */
export async function grantPolicyCredits(tx: Db, input: PolicyGrantOrigin) {
  const policies = await tx.select().from(entitlementPolicies).where(eq(entitlementPolicies.priceId, input.priceId));
  for (const policy of policies) {
    if (!policy.creditGrantAmount || policy.creditGrantAmount <= 0) continue;
    const origin =
      'checkoutId' in input.origin
        ? { source: 'purchase' as const, checkoutId: input.origin.checkoutId, reason: `One-time purchase of ${input.priceId}` }
        : {
            source: 'period' as const,
            subscriptionId: input.origin.subscriptionId,
            periodIndex: input.origin.periodIndex,
            expiresAt: input.origin.periodEnd,
            reason: `Paid period ${input.origin.periodIndex} of ${input.priceId}`,
          };
    const [grant] = await tx
      .insert(creditGrants)
      .values({
        id: newId('creditGrant'),
        merchantId: input.merchantId,
        customerId: input.customerId,
        feature: policy.feature,
        amount: policy.creditGrantAmount,
        remaining: policy.creditGrantAmount,
        createdAt: now(),
        ...origin,
      })
      .onConflictDoNothing()
      .returning();
    if (grant) {
      await recordEvent(tx, { merchantId: input.merchantId, type: 'credit.granted', object: { ...toCreditGrantResponse(grant), priceId: input.priceId } });
    }
  }
}

/** Live grants (not expired on the customer's clock, something left) per feature, and their sum. */
export async function getCreditBalance(db: Db, merchantId: string, customerId: string) {
  const { at } = await resolveEntitlements(db, merchantId, customerId);
  const rows = await db
    .select()
    .from(creditGrants)
    .where(
      and(
        eq(creditGrants.merchantId, merchantId),
        eq(creditGrants.customerId, customerId),
        gt(creditGrants.remaining, 0),
        or(isNull(creditGrants.expiresAt), gt(creditGrants.expiresAt, at)),
      ),
    )
    .orderBy(asc(creditGrants.feature), sql`${creditGrants.expiresAt} asc nulls last`, asc(creditGrants.createdAt));
  const byFeature = new Map<string, { feature: string; balance: number; grants: ReturnType<typeof toCreditGrantResponse>[] }>();
  for (const row of rows) {
    const entry = byFeature.get(row.feature) ?? { feature: row.feature, balance: 0, grants: [] };
    entry.balance += row.remaining;
    entry.grants.push(toCreditGrantResponse(row));
    byFeature.set(row.feature, entry);
  }
  return { customerId, data: [...byFeature.values()] };
}
