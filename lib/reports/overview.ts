import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { reportWindow, REPORT_RANGES, type ReportRangeKey, type ReportWindow } from './range';

/** One figure per bucket, for the chosen period and the period before it (same bucket count). */
export interface Series {
  current: number[];
  previous: number[];
}

export type MoneySeries = Record<string, Series>;

export interface OutcomeCounts {
  succeeded: number;
  failed: number;
  unknown: number;
}

export interface DeliveryCounts {
  delivered: number;
  retrying: number;
  dead: number;
  pending: number;
}

export interface MrrMovement {
  new: number;
  expansion: number;
  contraction: number;
  churn: number;
}

export interface Overview {
  window: Omit<ReportWindow, 'keyOf'>;
  /** Bucket keys of the current period (`YYYY-MM-DD` or `YYYY-MM`); `previousKeys` line up with them. */
  keys: string[];
  previousKeys: string[];
  /** Succeeded payments (refunded ones included) by the day they were made, per currency. */
  grossVolume: MoneySeries;
  /** Gross volume less the refunds that succeeded and the disputes lost in the same bucket. */
  netVolume: MoneySeries;
  /** Disputes lost (the disputed amount the processor kept for the customer), by the day they were lost. */
  disputesLost: MoneySeries;
  /** Monthly recurring revenue at the end of each bucket, per currency. */
  mrr: MoneySeries;
  /** MRR movement over the whole period, per currency. */
  mrrMovement: Record<string, { current: MrrMovement; previous: MrrMovement }>;
  /** Subscriptions started and not ended at the end of each bucket. */
  activeSubscriptions: Series;
  newCustomers: Series;
  payments: { current: OutcomeCounts; previous: OutcomeCounts };
  webhookDeliveries: { current: DeliveryCounts; previous: DeliveryCounts };
}

const SUCCEEDED = sql.raw(`('succeeded', 'partially_refunded', 'refunded')`);

/**
 * A price's amount per month, in minor units (rounded per subscription, so MRR is a sum of
 * integers): a year is 12 months, a week 52/12 of a month, a day 365/12 of one.
 */
const monthly = (price: string) =>
  sql.raw(
    `round(${price}.amount * (case ${price}.interval when 'year' then 1.0 / 12 when 'week' then 52.0 / 12 when 'day' then 365.0 / 12 else 1.0 end) / coalesce(${price}.interval_count, 1))::bigint`,
  );

/** Everything the overview shows, for one seller over one range; each figure is one grouped query. */
export async function loadOverview(db: Db, merchantId: string, options: { range: ReportRangeKey; timeZone: string; at: Date }): Promise<Overview> {
  const window = await reportWindow(db, options.range, options.timeZone, options.at);
  const n = REPORT_RANGES[options.range].buckets;
  const index = new Map(window.keys.map((key, i) => [key, i]));
  const split = (values: number[]): Series => ({ previous: values.slice(0, n), current: values.slice(n) });
  const blank = () => new Array<number>(2 * n).fill(0);
  const inWindow = (column: string) => sql.raw(`${column} >= '${window.start.toISOString()}' and ${column} < '${window.end.toISOString()}'`);

  const [gross, refunded, lost, customers, outcomes, deliveries, moves] = await Promise.all([
    db.execute<{ currency: string; key: string; total: number }>(sql`
      select currency, ${window.keyOf(sql.raw('created_at'))} as key, sum(amount)::bigint as total
      from payments where merchant_id = ${merchantId} and status in ${SUCCEEDED} and ${inWindow('created_at')}
      group by 1, 2`),
    db.execute<{ currency: string; key: string; total: number }>(sql`
      select currency, ${window.keyOf(sql.raw('created_at'))} as key, sum(amount)::bigint as total
      from refunds where merchant_id = ${merchantId} and status = 'succeeded' and ${inWindow('created_at')}
      group by 1, 2`),
    db.execute<{ currency: string; key: string; total: number }>(sql`
      select currency, ${window.keyOf(sql.raw('closed_at'))} as key, sum(amount)::bigint as total
      from disputes where merchant_id = ${merchantId} and status = 'lost' and ${inWindow('closed_at')}
      group by 1, 2`),
    db.execute<{ key: string; total: number }>(sql`
      select ${window.keyOf(sql.raw('created_at'))} as key, count(*) as total
      from customers where merchant_id = ${merchantId} and ${inWindow('created_at')}
      group by 1`),
    db.execute<{ current: boolean; status: string; total: number }>(sql`
      select created_at >= ${window.currentStart} as current, status, count(*) as total
      from payments where merchant_id = ${merchantId} and ${inWindow('created_at')}
      group by 1, 2`),
    db.execute<{ current: boolean; status: string; total: number }>(sql`
      select created_at >= ${window.currentStart} as current, status, count(*) as total
      from webhook_deliveries where merchant_id = ${merchantId} and ${inWindow('created_at')}
      group by 1, 2`),
    subscriptionMoves(db, merchantId, window),
  ]);

  const money = (rows: { currency: string; key: string; total: number }[]) => {
    const byCurrency: Record<string, number[]> = {};
    for (const row of rows) {
      const i = index.get(row.key);
      if (i === undefined) continue;
      byCurrency[row.currency] ??= blank();
      byCurrency[row.currency]![i]! += row.total;
    }
    return byCurrency;
  };
  const grossByCurrency = money(gross.rows);
  const refundedByCurrency = money(refunded.rows);
  const lostByCurrency = money(lost.rows);
  const currencies = [
    ...new Set([...Object.keys(grossByCurrency), ...Object.keys(refundedByCurrency), ...Object.keys(lostByCurrency), ...moves.currencies]),
  ].sort();

  const grossVolume: MoneySeries = {};
  const netVolume: MoneySeries = {};
  const disputesLost: MoneySeries = {};
  for (const currency of currencies) {
    const g = grossByCurrency[currency] ?? blank();
    const r = refundedByCurrency[currency] ?? blank();
    const d = lostByCurrency[currency] ?? blank();
    grossVolume[currency] = split(g);
    netVolume[currency] = split(g.map((value, i) => value - r[i]! - d[i]!));
  }
  for (const currency of Object.keys(lostByCurrency).sort()) disputesLost[currency] = split(lostByCurrency[currency]!);

  const newCustomers = blank();
  for (const row of customers.rows) {
    const i = index.get(row.key);
    if (i !== undefined) newCustomers[i] = row.total;
  }

  const outcome = (current: boolean): OutcomeCounts => {
    const counts = { succeeded: 0, failed: 0, unknown: 0 };
    for (const row of outcomes.rows.filter((r) => r.current === current)) {
      if (['succeeded', 'partially_refunded', 'refunded'].includes(row.status)) counts.succeeded += row.total;
      else if (row.status === 'failed') counts.failed += row.total;
      else if (row.status === 'unknown') counts.unknown += row.total;
    }
    return counts;
  };
  const delivery = (current: boolean): DeliveryCounts => {
    const counts = { delivered: 0, retrying: 0, dead: 0, pending: 0 };
    for (const row of deliveries.rows.filter((r) => r.current === current)) {
      if (row.status === 'delivered') counts.delivered += row.total;
      else if (row.status === 'failed') counts.retrying += row.total;
      else if (row.status === 'dead') counts.dead += row.total;
      else counts.pending += row.total;
    }
    return counts;
  };

  const mrr: MoneySeries = {};
  const mrrMovement: Overview['mrrMovement'] = {};
  for (const currency of moves.currencies) {
    mrr[currency] = split(moves.mrr[currency]!);
    mrrMovement[currency] = moves.movement[currency]!;
  }
  const { keyOf: _keyOf, ...windowInfo } = window;
  return {
    window: windowInfo,
    keys: window.keys.slice(n),
    previousKeys: window.keys.slice(0, n),
    grossVolume,
    netVolume,
    disputesLost,
    mrr,
    mrrMovement,
    activeSubscriptions: split(moves.active),
    newCustomers: split(newCustomers),
    payments: { current: outcome(true), previous: outcome(false) },
    webhookDeliveries: { current: delivery(true), previous: delivery(false) },
  };
}

/**
 * MRR and active subscriptions from the subscription history: a start adds the price's monthly
 * amount, a price change adds the difference (expansion or contraction), an end takes the last
 * price's amount away (churn). Times are the subscription's own (test clocks included), so a
 * sandbox history lands on the days it simulates. A trial counts from its start.
 */
async function subscriptionMoves(db: Db, merchantId: string, window: ReportWindow) {
  const result = await db.execute<{ bucket: string | null; currency: string; kind: keyof MrrMovement; amount: number; count: number }>(sql`
    with moves as (
      select c.effective_at as at, p.currency, 'new' as kind, ${monthly('p')} as amount, 1 as count
      from subscription_changes c join prices p on p.id = c.to_price_id
      where c.merchant_id = ${merchantId} and c.type = 'Create' and c.status = 'applied'
      union all
      select c.effective_at, tp.currency,
        case when ${monthly('tp')} >= ${monthly('fp')} then 'expansion' else 'contraction' end,
        ${monthly('tp')} - ${monthly('fp')}, 0
      from subscription_changes c join prices fp on fp.id = c.from_price_id join prices tp on tp.id = c.to_price_id
      where c.merchant_id = ${merchantId} and c.type = 'ChangePrice' and c.status = 'applied'
      union all
      select s.ended_at, p.currency, 'churn', -${monthly('p')}, -1
      from subscriptions s join prices p on p.id = s.price_id
      where s.merchant_id = ${merchantId} and s.ended_at is not null
    )
    select case when at < ${window.start} then null else ${window.keyOf(sql.raw('at'))} end as bucket,
      currency, kind, sum(amount)::bigint as amount, sum(count)::bigint as count
    from moves where at < ${window.end}
    group by 1, 2, 3`);
  const keys = window.keys;
  const n = keys.length / 2;
  const index = new Map(keys.map((key, i) => [key, i]));
  const zero = (): MrrMovement => ({ new: 0, expansion: 0, contraction: 0, churn: 0 });
  const deltas: Record<string, number[]> = {};
  const baseline: Record<string, number> = {};
  const activeDeltas = new Array<number>(keys.length).fill(0);
  let activeBaseline = 0;
  const movement: Record<string, { current: MrrMovement; previous: MrrMovement }> = {};
  for (const row of result.rows) {
    deltas[row.currency] ??= new Array<number>(keys.length).fill(0);
    movement[row.currency] ??= { current: zero(), previous: zero() };
    const i = row.bucket === null ? undefined : index.get(row.bucket);
    if (i === undefined) {
      baseline[row.currency] = (baseline[row.currency] ?? 0) + row.amount;
      activeBaseline += row.count;
      continue;
    }
    deltas[row.currency]![i]! += row.amount;
    activeDeltas[i]! += row.count;
    movement[row.currency]![i < n ? 'previous' : 'current'][row.kind] += row.amount;
  }
  const running = (start: number, steps: number[]) => {
    let total = start;
    return steps.map((step) => (total += step));
  };
  const mrr: Record<string, number[]> = {};
  for (const currency of Object.keys(deltas)) mrr[currency] = running(baseline[currency] ?? 0, deltas[currency]!);
  return { currencies: Object.keys(deltas).sort(), mrr, movement, active: running(activeBaseline, activeDeltas) };
}
