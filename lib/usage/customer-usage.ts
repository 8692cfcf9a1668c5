import type { Db } from '../db/client';
import { getCreditBalance } from './credits';
import { getCustomerEntitlements } from './entitlement-view';
import { getCustomerUsageHistory } from './usage-history';

/**
 * What a customer's usage section shows (components/usage/usage-overview.tsx): their
 * entitlements, credit balances and, for the seller's customer page, usage by day.
 */
export async function getCustomerUsageOverview(db: Db, merchantId: string, customerId: string, options: { history: boolean }) {
  const [entitlements, credits, history] = await Promise.all([
    getCustomerEntitlements(db, merchantId, customerId),
    getCreditBalance(db, merchantId, customerId),
    options.history ? getCustomerUsageHistory(db, merchantId, customerId) : null,
  ]);
  return { entitlements, credits, history };
}

export type CustomerUsageOverview = Awaited<ReturnType<typeof getCustomerUsageOverview>>;
