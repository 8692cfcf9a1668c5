import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { EventInput } from '../events/record-event';
import { now } from '../clock';
import type { CustomerEntitlements, ResolvedEntitlement } from './resolve';

/** A credit balance at or below this share of what its live grants gave is `credit.low`. */
export const CREDIT_LOW_PERCENT = 20;

interface GrantState {
  id: string;
  amount: number;
  remaining: number;
  createdAt: Date;
}

/**
 * One customer's feature in its current period, read (and for a change, locked): the counter
 * row and the live credit grants, earliest expiry first. While a transaction holds it, no other
 * can consume the same limit or credits, so check-and-consume cannot overdraw.
 */
export interface Meter {
  merchantId: string;
  customerId: string;
  entitlement: ResolvedEntitlement;
  used: number;
  spent: number;
  grants: GrantState[];
  readonly usedBefore: number;
  readonly spentBefore: number;
  readonly balanceBefore: number;
  changedGrants: Set<string>;
}

export async function openMeter(db: Db, merchantId: string, resolved: CustomerEntitlements, entitlement: ResolvedEntitlement, lock: boolean): Promise<Meter> {
  const { customerId } = resolved;
  const { feature, period } = entitlement;
  const live = sql`customer_id = ${customerId} and merchant_id = ${merchantId} and feature = ${feature}
    and (expires_at is null or expires_at > ${resolved.at.toISOString()})`;
  const counter = lock
    ? sql`insert into usage_counters (merchant_id, customer_id, feature, period_key, period_start, period_end, used, spent, updated_at)
        values (${merchantId}, ${customerId}, ${feature}, ${period.key}, ${period.start?.toISOString() ?? null}, ${period.end?.toISOString() ?? null}, 0, 0, ${now().toISOString()})
        on conflict (customer_id, feature, period_key) do update set updated_at = excluded.updated_at
        returning used, spent`
    : sql`select used, spent from usage_counters where customer_id = ${customerId} and feature = ${feature} and period_key = ${period.key}`;
  // One round trip: the counter (created and locked when changing) and the live grants (locked too).
  const result = await db.execute<{
    used: number | null;
    spent: number | null;
    grants: { id: string; amount: number; remaining: number; created_at: string }[];
  }>(sql`
    with counter as (${counter})
    select (select used from counter) as used, (select spent from counter) as spent,
      coalesce((select json_agg(g) from (
        select id, amount, remaining, created_at from credit_grants where ${live}
        order by expires_at asc nulls last, created_at, id ${lock ? sql`for update` : sql``}
      ) g), '[]'::json) as grants`);
  const counterRow = result.rows[0]!;
  return newMeter(merchantId, customerId, entitlement, counterRow.used ?? 0, counterRow.spent ?? 0, counterRow.grants);
}

type GrantJson = { id: string; amount: number; remaining: number; created_at: string };

function newMeter(merchantId: string, customerId: string, entitlement: ResolvedEntitlement, used: number, spent: number, grants: GrantJson[]): Meter {
  const states = grants.map((g) => ({ id: g.id, amount: g.amount, remaining: g.remaining, createdAt: new Date(g.created_at) }));
  return {
    merchantId,
    customerId,
    entitlement,
    used,
    spent,
    grants: states,
    usedBefore: used,
    spentBefore: spent,
    balanceBefore: balanceOf(states),
    changedGrants: new Set(),
  };
}

export interface MeterRequest {
  resolved: CustomerEntitlements;
  entitlement: ResolvedEntitlement;
}

/**
 * Opens and locks several meters in one statement (a usage batch). The counters are created or
 * locked in the order given — callers sort it — so two batches never wait on each other in a
 * cycle; a meter's grants are locked only by whoever holds its counter.
 */
export async function openMeters(tx: Db, merchantId: string, requests: MeterRequest[]): Promise<Meter[]> {
  if (requests.length === 0) return [];
  const wanted = requests.map(
    ({ resolved, entitlement: { feature, period } }, ord) =>
      sql`(${ord}::int, ${resolved.customerId}::text, ${feature}::text, ${period.key}::text, ${period.start?.toISOString() ?? null}::timestamptz, ${period.end?.toISOString() ?? null}::timestamptz, ${resolved.at.toISOString()}::timestamptz)`,
  );
  const result = await tx.execute<{ ord: number; used: number; spent: number; grants: GrantJson[] }>(sql`
    with wanted (ord, customer_id, feature, period_key, period_start, period_end, at) as (values ${sql.join(wanted, sql`, `)}),
    counters as (
      insert into usage_counters (merchant_id, customer_id, feature, period_key, period_start, period_end, used, spent, updated_at)
      select ${merchantId}, customer_id, feature, period_key, period_start, period_end, 0, 0, ${now().toISOString()} from wanted order by ord
      on conflict (customer_id, feature, period_key) do update set updated_at = excluded.updated_at
      returning customer_id, feature, used, spent
    )
    select w.ord, c.used, c.spent, coalesce((select json_agg(g) from (
        select id, amount, remaining, created_at from credit_grants
        where customer_id = w.customer_id and merchant_id = ${merchantId} and feature = w.feature and (expires_at is null or expires_at > w.at)
        order by expires_at asc nulls last, created_at, id for update
      ) g), '[]'::json) as grants
    from wanted w join counters c on c.customer_id = w.customer_id and c.feature = w.feature
    order by w.ord`);
  return result.rows.map((row) => {
    const { resolved, entitlement } = requests[row.ord]!;
    return newMeter(merchantId, resolved.customerId, entitlement, row.used, row.spent, row.grants);
  });
}

export function creditBalance(meter: Meter): number {
  return balanceOf(meter.grants);
}

function balanceOf(grants: GrantState[]): number {
  return grants.reduce((sum, grant) => sum + grant.remaining, 0);
}

/** Units the period's limit still covers (Infinity when units are not limited, 0 for Denied and credits-only). */
export function allowanceLeft(meter: Meter): number {
  const { access, limit } = meter.entitlement;
  if (access === 'Unlimited' || (access === 'Limited' && limit === null)) return Infinity;
  if (access === 'Limited') return Math.max(0, limit! - meter.used);
  return 0;
}

/** Units still available: the limit's rest plus credits; null when units are unlimited. */
export function remainingUnits(meter: Meter): number | null {
  const left = allowanceLeft(meter);
  return left === Infinity ? null : left + creditBalance(meter);
}

/** Whether `quantity` units costing `amount` may be used now (the limit first, then credits). */
export function mayUse(meter: Meter, quantity: number, amount: number): boolean {
  const { access, limitAmount } = meter.entitlement;
  if (access === 'Denied') return false;
  if (limitAmount !== null && meter.spent + amount > limitAmount) return false;
  return allowanceLeft(meter) + creditBalance(meter) >= quantity;
}

export interface Draw {
  grantId: string;
  units: number;
}

/**
 * Counts usage on the meter: the period's limit covers what it can, credits (earliest expiry
 * first) what is beyond it, never below zero. Recording never refuses a fact, so usage beyond
 * both is still counted. A Denied feature draws no credits.
 */
export function consume(meter: Meter, quantity: number, amount: number): Draw[] {
  let beyond = meter.entitlement.access === 'Denied' ? 0 : Math.max(0, quantity - allowanceLeft(meter));
  const draws: Draw[] = [];
  for (const grant of meter.grants) {
    if (beyond === 0) break;
    const units = Math.min(beyond, grant.remaining);
    if (units === 0) continue;
    grant.remaining -= units;
    beyond -= units;
    meter.changedGrants.add(grant.id);
    draws.push({ grantId: grant.id, units });
  }
  meter.used += quantity;
  meter.spent += amount;
  return draws;
}

/**
 * What `consume` counted, as CTE definitions (`name as (…)`) for the statement that records the
 * usage's events (lib/usage/usage-records.ts), so both commit in one round trip while the
 * meters' transaction holds their locks: the counters, the grants' balances and the draws.
 */
export function meterWrites(meters: Meter[], draws: { usageId: string; draw: Draw }[]): SQL | undefined {
  if (meters.length === 0) return undefined;
  const at = now().toISOString();
  const counters = meters.map(
    (m) => sql`(${m.customerId}::text, ${m.entitlement.feature}::text, ${m.entitlement.period.key}::text, ${m.used}::int, ${m.spent}::int)`,
  );
  const changed = meters.flatMap((meter) => meter.grants.filter((grant) => meter.changedGrants.has(grant.id)));
  const grantUpdate = changed.length
    ? sql`, meter_grants as (update credit_grants g set remaining = v.remaining
        from (values ${sql.join(
          changed.map((grant) => sql`(${grant.id}::text, ${grant.remaining}::int)`),
          sql`, `,
        )}) v(id, remaining) where g.id = v.id)`
    : sql``;
  const drawInsert = draws.length
    ? sql`, meter_draws as (insert into credit_draws (usage_id, grant_id, units)
        values ${sql.join(
          draws.map(({ usageId, draw }) => sql`(${usageId}, ${draw.grantId}, ${draw.units}::int)`),
          sql`, `,
        )})`
    : sql``;
  return sql`meter_counters as (update usage_counters c set used = v.used, spent = v.spent, updated_at = ${at}
      from (values ${sql.join(counters, sql`, `)}) v(customer_id, feature, period_key, used, spent)
      where c.customer_id = v.customer_id and c.feature = v.feature and c.period_key = v.period_key)
    ${grantUpdate} ${drawInsert}`;
}

/**
 * Queues the threshold events crossed by what `consume` counted, each once per period (limit)
 * or per top-up (credits); a statement only when a line was crossed.
 */
export async function claimThresholds(tx: Db, meters: Meter[], events: EventInput[]): Promise<void> {
  const crossed = meters.flatMap(thresholdsCrossed);
  if (crossed.length === 0) return;
  const values = crossed.map((t) => sql`(${t.customerId}, ${t.feature}, ${t.type}, ${t.scopeKey})`);
  const fresh = await tx.execute<{ customer_id: string; feature: string; type: string; scope_key: string }>(sql`
    insert into usage_thresholds (customer_id, feature, type, scope_key) values ${sql.join(values, sql`, `)}
    on conflict do nothing returning customer_id, feature, type, scope_key`);
  for (const threshold of crossed) {
    const isFresh = fresh.rows.some(
      (row) =>
        row.customer_id === threshold.customerId && row.feature === threshold.feature && row.type === threshold.type && row.scope_key === threshold.scopeKey,
    );
    if (isFresh) events.push(threshold.event);
  }
}

interface Threshold {
  customerId: string;
  feature: string;
  type: string;
  scopeKey: string;
  event: EventInput;
}

function thresholdsCrossed(meter: Meter): Threshold[] {
  const { customerId, entitlement, merchantId } = meter;
  const { feature, period, limit, limitAmount } = entitlement;
  const crossed: Threshold[] = [];
  const periodFields = { periodKey: period.key, periodStart: period.start?.toISOString() ?? null, periodEnd: period.end?.toISOString() ?? null };
  if (entitlement.access === 'Limited') {
    if (limit !== null && meter.usedBefore < limit && meter.used >= limit) {
      crossed.push({
        customerId,
        feature,
        type: 'limit',
        scopeKey: period.key,
        event: {
          merchantId,
          type: 'entitlement.exhausted',
          object: { customerId, feature, limit, limitAmount, used: meter.used, spent: meter.spent, reached: 'limit', ...periodFields },
        },
      });
    }
    if (limitAmount !== null && meter.spentBefore < limitAmount && meter.spent >= limitAmount) {
      crossed.push({
        customerId,
        feature,
        type: 'limitAmount',
        scopeKey: period.key,
        event: {
          merchantId,
          type: 'entitlement.exhausted',
          object: { customerId, feature, limit, limitAmount, used: meter.used, spent: meter.spent, reached: 'limitAmount', ...periodFields },
        },
      });
    }
  }
  const balance = creditBalance(meter);
  if (meter.changedGrants.size > 0 && balance < meter.balanceBefore) {
    // The newest grant names the top-up: a new grant re-arms both credit thresholds.
    const topUp = meter.grants.reduce((latest, grant) => (grant.createdAt > latest.createdAt ? grant : latest));
    const granted = meter.grants.reduce((sum, grant) => sum + grant.amount, 0);
    const object = { customerId, feature, balance, granted, lowThresholdPercent: CREDIT_LOW_PERCENT, latestGrantId: topUp.id };
    if (balance * 100 <= granted * CREDIT_LOW_PERCENT)
      crossed.push({ customerId, feature, type: 'credit.low', scopeKey: topUp.id, event: { merchantId, type: 'credit.low', object } });
    if (balance === 0)
      crossed.push({ customerId, feature, type: 'credit.exhausted', scopeKey: topUp.id, event: { merchantId, type: 'credit.exhausted', object } });
  }
  return crossed;
}
