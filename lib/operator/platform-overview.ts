import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { reportWindow, REPORT_RANGES } from '../reports/range';
import type { MoneySeries, Series } from '../reports/overview';

/** The operator's ranges: days, in UTC (sellers span every time zone). */
export const PLATFORM_RANGES = ['7d', '30d', '90d'] as const;
export type PlatformRange = (typeof PLATFORM_RANGES)[number];
export const parsePlatformRange = (value: unknown): PlatformRange => (PLATFORM_RANGES.includes(value as PlatformRange) ? (value as PlatformRange) : '30d');

const SUCCEEDED = sql.raw(`('succeeded', 'partially_refunded', 'refunded')`);
const TOP_SELLERS = 10;
const LIST_LIMIT = 20;

export interface SellerVolume {
  merchantId: string;
  name: string;
  status: string;
  currency: string;
  volume: number;
  payments: number;
}

export interface UnhealthyEndpoint {
  id: string;
  merchantId: string;
  merchantName: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  retrying: number;
}

export interface QueueDepth {
  /** Waiting to run and due now. */
  due: number;
  /** Scheduled for later (job run_at / delivery retry time in the future). */
  scheduled: number;
  /** Being worked on now (job locked / delivery leased). */
  running: number;
  /** Jobs that used up their attempts (graphile-worker keeps them); deliveries: none (they go dead). */
  failed: number;
  /** Seconds the oldest due item has been waiting, 0 when nothing is due. */
  oldestDueSeconds: number;
}

export interface PlatformOverview {
  range: PlatformRange;
  keys: string[];
  previousKeys: string[];
  /** Succeeded payments (refunded included) per UTC day across every seller, per currency. */
  volume: MoneySeries;
  /** Payments started per UTC day, whatever their outcome. */
  payments: Series;
  /** Per currency, the sellers with the most volume in the current period. */
  topSellers: Record<string, SellerVolume[]>;
  unhealthyEndpoints: { total: number; data: UnhealthyEndpoint[] };
  deadDeliveries: { current: number; previous: number };
  jobQueue: QueueDepth & { byTask: { task: string; due: number; running: number; failed: number }[] };
  webhookQueue: QueueDepth;
  /** Payments in `unknown` (waiting for the reconciliation job) and in `needs_review` (waiting for a person). */
  reconciliation: { unknown: number; oldestSeconds: number; needsReview: number };
}

/**
 * Everything the platform overview shows. Each figure is one query bounded by the window (on
 * `payments_created_idx`) or by a partial index that holds only the rows it counts (unknown
 * and needs-review payments, dead deliveries, unhealthy endpoints, due and leased deliveries), so its cost
 * follows what is shown, not the number of sellers.
 */
export async function loadPlatformOverview(db: Db, options: { range: PlatformRange; at: Date }): Promise<PlatformOverview> {
  const window = await reportWindow(db, options.range, 'UTC', options.at);
  const n = REPORT_RANGES[options.range].buckets;
  const index = new Map(window.keys.map((key, i) => [key, i]));
  const blank = () => new Array<number>(2 * n).fill(0);
  const split = (values: number[]): Series => ({ previous: values.slice(0, n), current: values.slice(n) });
  const at = options.at.toISOString();

  const [daily, top, endpoints, endpointCount, dead, jobs, deliveries, unknown] = await Promise.all([
    db.execute<{ currency: string; key: string; volume: number; succeeded: number; total: number }>(sql`
      select currency, ${window.keyOf(sql.raw('created_at'))} as key,
        coalesce(sum(amount) filter (where status in ${SUCCEEDED}), 0)::bigint as volume, count(*)::int as total
      from payments where created_at >= ${window.start} and created_at < ${window.end}
      group by 1, 2`),
    db.execute<{ merchant_id: string; name: string; status: string; currency: string; volume: number; payments: number }>(sql`
      select ranked.merchant_id, m.name, m.status, ranked.currency, ranked.volume, ranked.payments
      from (
        select merchant_id, currency, sum(amount)::bigint as volume, count(*)::int as payments,
          row_number() over (partition by currency order by sum(amount) desc, merchant_id) as place
        from payments
        where status in ${SUCCEEDED} and created_at >= ${window.currentStart} and created_at < ${window.end}
        group by 1, 2
      ) ranked join merchants m on m.id = ranked.merchant_id
      where ranked.place <= ${TOP_SELLERS}
      order by ranked.currency, ranked.place`),
    db.execute<{
      id: string;
      merchant_id: string;
      merchant_name: string;
      url: string;
      enabled: boolean;
      disabled_reason: string | null;
      disabled_at: string | null;
      failing_since: string | null;
      retrying: number;
    }>(sql`
      select e.id, e.merchant_id, m.name as merchant_name, e.url, e.enabled, e.disabled_reason, e.disabled_at, e.failing_since,
        (select count(*)::int from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'failed') as retrying
      from webhook_endpoints e join merchants m on m.id = e.merchant_id
      where e.enabled = false or e.failing_since is not null
      order by e.enabled desc, coalesce(e.failing_since, e.disabled_at) asc nulls last, e.id
      limit ${LIST_LIMIT}`),
    db.execute<{ total: number }>(sql`select count(*)::int as total from webhook_endpoints where enabled = false or failing_since is not null`),
    db.execute<{ current: boolean; total: number }>(sql`
      select created_at >= ${window.currentStart} as current, count(*)::int as total
      from webhook_deliveries where status = 'dead' and created_at >= ${window.start} and created_at < ${window.end}
      group by 1`),
    db.execute<{ task: string; due: number; scheduled: number; running: number; failed: number; oldest_due: number | null }>(sql`
      select task_identifier as task,
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= ${at}::timestamptz)::int as due,
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at > ${at}::timestamptz)::int as scheduled,
        count(*) filter (where locked_at is not null)::int as running,
        count(*) filter (where attempts >= max_attempts)::int as failed,
        extract(epoch from ${at}::timestamptz - min(run_at) filter (where locked_at is null and attempts < max_attempts and run_at <= ${at}::timestamptz))::float8 as oldest_due
      from graphile_worker.jobs group by 1 order by 1`),
    db.execute<{ due: number; scheduled: number; running: number; oldest_due: number | null }>(sql`
      select
        (select count(*)::int from webhook_deliveries where due_at is not null and due_at <= ${at}::timestamptz and (lease_until is null or lease_until <= ${at}::timestamptz)) as due,
        (select count(*)::int from webhook_deliveries where due_at is not null and due_at > ${at}::timestamptz and lease_until is null) as scheduled,
        (select count(*)::int from webhook_deliveries where lease_until is not null and lease_until > ${at}::timestamptz) as running,
        (select extract(epoch from ${at}::timestamptz - min(due_at))::float8 from webhook_deliveries where due_at is not null and due_at <= ${at}::timestamptz) as oldest_due`),
    db.execute<{ total: number; oldest: number | null; needs_review: number }>(sql`
      select count(*)::int as total, extract(epoch from ${at}::timestamptz - min(created_at))::float8 as oldest,
        (select count(*)::int from payments where status = 'needs_review') as needs_review
      from payments where status = 'unknown'`),
  ]);

  const volumeByCurrency: Record<string, number[]> = {};
  const payments = blank();
  for (const row of daily.rows) {
    const i = index.get(row.key);
    if (i === undefined) continue;
    volumeByCurrency[row.currency] ??= blank();
    volumeByCurrency[row.currency]![i]! += Number(row.volume);
    payments[i]! += row.total;
  }
  const volume: MoneySeries = {};
  for (const currency of Object.keys(volumeByCurrency).sort()) volume[currency] = split(volumeByCurrency[currency]!);

  const topSellers: Record<string, SellerVolume[]> = {};
  for (const row of top.rows) {
    topSellers[row.currency] ??= [];
    topSellers[row.currency]!.push({
      merchantId: row.merchant_id,
      name: row.name,
      status: row.status,
      currency: row.currency,
      volume: Number(row.volume),
      payments: row.payments,
    });
  }

  const byTask = jobs.rows.map((row) => ({ task: row.task, due: row.due, running: row.running, failed: row.failed }));
  const sum = (field: 'due' | 'scheduled' | 'running' | 'failed') => jobs.rows.reduce((total, row) => total + row[field], 0);
  const queue = deliveries.rows[0]!;
  const seconds = (value: number | null | undefined) => Math.max(0, Math.floor(value ?? 0));

  return {
    range: options.range,
    keys: window.keys.slice(n),
    previousKeys: window.keys.slice(0, n),
    volume,
    payments: split(payments),
    topSellers,
    unhealthyEndpoints: {
      total: endpointCount.rows[0]!.total,
      data: endpoints.rows.map((row) => ({
        id: row.id,
        merchantId: row.merchant_id,
        merchantName: row.merchant_name,
        url: row.url,
        enabled: row.enabled,
        disabledReason: row.disabled_reason,
        disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
        failingSince: row.failing_since ? new Date(row.failing_since) : null,
        retrying: row.retrying,
      })),
    },
    deadDeliveries: {
      current: dead.rows.find((row) => row.current)?.total ?? 0,
      previous: dead.rows.find((row) => !row.current)?.total ?? 0,
    },
    jobQueue: {
      due: sum('due'),
      scheduled: sum('scheduled'),
      running: sum('running'),
      failed: sum('failed'),
      oldestDueSeconds: seconds(Math.max(0, ...jobs.rows.map((row) => row.oldest_due ?? 0))),
      byTask,
    },
    webhookQueue: { due: queue.due, scheduled: queue.scheduled, running: queue.running, failed: 0, oldestDueSeconds: seconds(queue.oldest_due) },
    reconciliation: {
      unknown: unknown.rows[0]!.total,
      oldestSeconds: seconds(unknown.rows[0]!.oldest),
      needsReview: unknown.rows[0]!.needs_review,
    },
  };
}
