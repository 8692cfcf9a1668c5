import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { entitlementFor, resolveEntitlements, type CustomerEntitlements } from './resolve';
import { creditBalance, mayUse, openMeter, remainingUnits, type Meter } from './meter';

export function toEntitlementResponse(meter: Meter) {
  const { entitlement } = meter;
  return {
    feature: entitlement.feature,
    allowed: mayUse(meter, 1, 0),
    access: entitlement.access,
    limit: entitlement.limit,
    limitAmount: entitlement.limitAmount,
    used: meter.used,
    spent: meter.spent,
    remaining: remainingUnits(meter),
    creditBalance: creditBalance(meter),
    periodStart: entitlement.period.start?.toISOString() ?? null,
    periodEnd: entitlement.period.end?.toISOString() ?? null,
    source: entitlement.source,
  };
}

export type EntitlementResponseBody = ReturnType<typeof toEntitlementResponse>;

/** The features a customer has: those of their policies and overrides, and those they hold live credits for. */
export async function customerFeatures(db: Db, merchantId: string, resolved: CustomerEntitlements) {
  const credited = await db.execute<{ feature: string }>(sql`
    select distinct feature from credit_grants
    where customer_id = ${resolved.customerId} and merchant_id = ${merchantId} and remaining > 0
      and (expires_at is null or expires_at > ${resolved.at.toISOString()})`);
  return [...new Set([...resolved.features.keys(), ...credited.rows.map((row) => row.feature)])].sort();
}

/**
 * Every feature the customer has (see `customerFeatures`), each with its usage in the current
 * period and where it comes from.
 */
export async function getCustomerEntitlements(db: Db, merchantId: string, customerId: string) {
  const resolved = await resolveEntitlements(db, merchantId, customerId);
  const data = [];
  for (const feature of await customerFeatures(db, merchantId, resolved)) {
    data.push(toEntitlementResponse(await openMeter(db, merchantId, resolved, entitlementFor(resolved, feature), false)));
  }
  return { customerId, data };
}
