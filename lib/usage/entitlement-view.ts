import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { entitlementFor, resolveEntitlements } from './resolve';
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

/**
 * Every feature the customer has: those of their policies and overrides, and those they hold
 * live credits for, each with its usage in the current period and where it comes from.
 */
export async function getCustomerEntitlements(db: Db, merchantId: string, customerId: string) {
  const resolved = await resolveEntitlements(db, merchantId, customerId);
  const credited = await db.execute<{ feature: string }>(sql`
    select distinct feature from credit_grants
    where customer_id = ${customerId} and merchant_id = ${merchantId} and remaining > 0
      and (expires_at is null or expires_at > ${resolved.at.toISOString()})`);
  const features = [...new Set([...resolved.features.keys(), ...credited.rows.map((row) => row.feature)])].sort();
  const data = [];
  for (const feature of features) {
    data.push(toEntitlementResponse(await openMeter(db, merchantId, resolved, entitlementFor(resolved, feature), false)));
  }
  return { customerId, data };
}
