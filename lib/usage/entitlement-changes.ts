import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { entitlementPolicies } from '../db/schema';
import { recordEvent } from '../events/record-event';
import { getCustomerEntitlements } from './entitlement-view';

export interface EntitlementCause {
  merchantId: string;
  customerId: string;
  /** What changed them: `subscription.price_changed`, `subscription.ended`, `purchase`. */
  cause: string;
  subscriptionId?: string;
  /** The prices whose policies come or go; no event when none of them has a policy. */
  priceIds: string[];
}

/**
 * `entitlement.changed` with the customer's entitlements as they are now (in the transaction of
 * the change): a plan change moves limits at once, mid-period, with usage so far kept.
 */
export async function recordEntitlementChanged(tx: Db, input: EntitlementCause) {
  const [policy] = await tx
    .select({ id: entitlementPolicies.id })
    .from(entitlementPolicies)
    .where(inArray(entitlementPolicies.priceId, input.priceIds))
    .limit(1);
  if (!policy) return;
  const entitlements = await getCustomerEntitlements(tx, input.merchantId, input.customerId);
  await recordEvent(tx, {
    merchantId: input.merchantId,
    type: 'entitlement.changed',
    object: { ...entitlements, cause: input.cause, subscriptionId: input.subscriptionId ?? null, priceIds: input.priceIds },
  });
}
