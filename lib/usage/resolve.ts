import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { now } from '../clock';
import { notFound } from '../errors';
import type { EntitlementAllowed } from './schemas';

export type SourceType = 'override' | 'subscription' | 'purchase' | 'none';

/** Where a customer's usage of one feature counts: a subscription period, or for life. */
export interface MeteringPeriod {
  key: string;
  start: Date | null;
  end: Date | null;
}

export interface ResolvedEntitlement {
  feature: string;
  access: EntitlementAllowed | 'None';
  limit: number | null;
  limitAmount: number | null;
  source: { type: SourceType; id: string | null };
  period: MeteringPeriod;
}

export interface CustomerEntitlements {
  customerId: string;
  /** The customer's time: their test clock's frozen time, or now. Grants expire against it. */
  at: Date;
  features: Map<string, ResolvedEntitlement>;
  /** The period of usage that no policy ties to a subscription (overrides, credits only). */
  defaultPeriod: MeteringPeriod;
}

const LIFETIME: MeteringPeriod = { key: 'lifetime', start: null, end: null };

interface CandidateRow extends Record<string, unknown> {
  source: 'override' | 'subscription' | 'purchase' | 'period';
  source_id: string;
  feature: string | null;
  allowed: EntitlementAllowed | null;
  limit: number | null;
  limit_amount: number | null;
  period_index: number | null;
  period_start: Date | string | null;
  period_end: Date | string | null;
  clock_time: Date | string | null;
}

const RANK: Record<EntitlementAllowed, number> = { Denied: 0, Limited: 1, Unlimited: 2 };

/** The more generous of two policies of the same kind (two subscriptions giving one feature). */
function moreGenerous(a: ResolvedEntitlement, b: ResolvedEntitlement): ResolvedEntitlement {
  const rankA = RANK[a.access as EntitlementAllowed];
  const rankB = RANK[b.access as EntitlementAllowed];
  if (rankA !== rankB) return rankA > rankB ? a : b;
  return (b.limit ?? 0) > (a.limit ?? 0) ? b : a;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * A customer's entitlements, one per feature: the customer's override wins; else the policies
 * of the prices of their live subscriptions (metered per subscription period, so a renewal or
 * a test clock starts a new count); else the policies of one-time prices they bought (metered
 * for life: never reset). One statement reads every candidate (an unknown customer: 404).
 */
export async function resolveEntitlements(db: Db, merchantId: string, customerId: string, customerField?: string): Promise<CustomerEntitlements> {
  const [resolved] = await resolveCustomersEntitlements(db, merchantId, [customerId]);
  if (!resolved) throw notFound('customer', customerId, customerField);
  return resolved;
}

/** The same for several customers in one statement (a usage batch); unknown customers are left out. */
export async function resolveCustomersEntitlements(db: Db, merchantId: string, customerIds: string[]): Promise<CustomerEntitlements[]> {
  const ids = sql.param(customerIds);
  const result = await db.execute<CandidateRow & { customer_id: string }>(sql`
    select o.customer_id, 'override' as source, o.id as source_id, o.feature, o.allowed, o."limit", o.limit_amount,
      null::int as period_index, null::timestamptz as period_start, null::timestamptz as period_end, null::timestamptz as clock_time
    from entitlement_overrides o where o.customer_id = any(${ids}::text[]) and o.merchant_id = ${merchantId}
    union all
    select s.customer_id, 'subscription', s.id, p.feature, p.allowed, p."limit", p.limit_amount, s.current_period_index, s.current_period_start, s.current_period_end, null
    from subscriptions s join entitlement_policies p on p.price_id = s.price_id
    where s.customer_id = any(${ids}::text[]) and s.merchant_id = ${merchantId} and s.status <> 'ended'
    union all
    select c.customer_id, 'purchase', c.id, p.feature, p.allowed, p."limit", p.limit_amount, null, null, null, null
    from checkouts c join prices pr on pr.id = c.price_id and pr.type = 'OneTime' join entitlement_policies p on p.price_id = c.price_id
    where c.customer_id = any(${ids}::text[]) and c.merchant_id = ${merchantId} and c.status = 'paid'
    union all
    select cu.id, 'period', s.id, null, null, null, null, s.current_period_index, s.current_period_start, s.current_period_end,
      (select tc.frozen_time from test_clock_customers tcc join test_clocks tc on tc.id = tcc.test_clock_id where tcc.customer_id = cu.id)
    from customers cu
    left join lateral (
      select * from subscriptions s where s.customer_id = cu.id and s.merchant_id = ${merchantId} and s.status <> 'ended'
      order by s.created_at limit 1
    ) s on true
    where cu.id = any(${ids}::text[]) and cu.merchant_id = ${merchantId}`);
  const byCustomer = new Map<string, CandidateRow[]>();
  for (const row of result.rows) byCustomer.set(row.customer_id, [...(byCustomer.get(row.customer_id) ?? []), row]);
  return customerIds.flatMap((customerId) => {
    const rows = byCustomer.get(customerId) ?? [];
    const base = rows.find((row) => row.source === 'period');
    return base ? [choose(customerId, rows, base)] : [];
  });
}

function choose(customerId: string, rows: CandidateRow[], base: CandidateRow): CustomerEntitlements {
  const defaultPeriod = base.source_id ? periodOf(base) : LIFETIME;
  const chosen = new Map<string, ResolvedEntitlement>();
  for (const source of ['purchase', 'subscription', 'override'] as const) {
    const layer = new Map<string, ResolvedEntitlement>();
    for (const row of rows) {
      if (row.source !== source || !row.feature) continue;
      const candidate: ResolvedEntitlement = {
        feature: row.feature,
        access: row.allowed!,
        limit: row.allowed === 'Limited' ? row.limit : null,
        limitAmount: row.allowed === 'Limited' ? row.limit_amount : null,
        source: { type: source, id: row.source_id },
        period: source === 'subscription' ? periodOf(row) : source === 'purchase' ? LIFETIME : defaultPeriod,
      };
      const earlier = layer.get(row.feature);
      layer.set(row.feature, earlier ? moreGenerous(earlier, candidate) : candidate);
    }
    // A later layer replaces an earlier one feature by feature; an override keeps the period
    // of the subscription policy it replaces, so overriding does not restart the count.
    for (const [feature, entitlement] of layer) {
      const replaced = chosen.get(feature);
      if (source === 'override' && replaced?.source.type === 'subscription') entitlement.period = replaced.period;
      chosen.set(feature, entitlement);
    }
  }
  return { customerId, at: date(base.clock_time) ?? now(), features: chosen, defaultPeriod };
}

function periodOf(row: CandidateRow): MeteringPeriod {
  return { key: `${row.source_id}:${row.period_index}`, start: date(row.period_start), end: date(row.period_end) };
}

/** The entitlement of one feature; a feature with neither policy nor override runs on credits alone. */
export function entitlementFor(resolved: CustomerEntitlements, feature: string): ResolvedEntitlement {
  return (
    resolved.features.get(feature) ?? {
      feature,
      access: 'None',
      limit: null,
      limitAmount: null,
      source: { type: 'none', id: null },
      period: resolved.defaultPeriod,
    }
  );
}
