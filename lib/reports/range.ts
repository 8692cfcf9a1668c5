import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** The overview's ranges: days are bucketed by day, the year by month, in the console's time zone. */
export const REPORT_RANGES = {
  '7d': { label: '7 days', unit: 'day', buckets: 7 },
  '30d': { label: '30 days', unit: 'day', buckets: 30 },
  '90d': { label: '90 days', unit: 'day', buckets: 90 },
  '12m': { label: '12 months', unit: 'month', buckets: 12 },
} as const;

export type ReportRangeKey = keyof typeof REPORT_RANGES;

export const parseReportRange = (value: unknown): ReportRangeKey => (typeof value === 'string' && value in REPORT_RANGES ? (value as ReportRangeKey) : '30d');

export interface ReportWindow {
  range: ReportRangeKey;
  timeZone: string;
  /** `YYYY-MM-DD` (days) or `YYYY-MM` (months): the previous period's buckets, then the current period's. */
  keys: string[];
  /** Start of the previous period; the current period starts at `currentStart`; both end at `end`. */
  start: Date;
  currentStart: Date;
  end: Date;
  /** How a timestamp column maps to its bucket key (same zone and format as `keys`). */
  keyOf: (column: unknown) => ReturnType<typeof sql>;
}

/**
 * The buckets of a range and of the period before it, computed by PostgreSQL in the account's
 * time zone (so days and months begin at the seller's midnight, daylight saving included).
 */
export async function reportWindow(db: Db, range: ReportRangeKey, timeZone: string, at: Date): Promise<ReportWindow> {
  const { unit, buckets } = REPORT_RANGES[range];
  const format = unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const step = sql.raw(`interval '1 ${unit}'`);
  const unitName = sql.raw(`'${unit}'`);
  const result = await db.execute<{ key: string; starts_at: Date | string }>(sql`
    select to_char(local_start, ${format}) as key, local_start at time zone ${timeZone} as starts_at
    from generate_series(
      date_trunc(${unitName}, ${at}::timestamptz at time zone ${timeZone}) - ${step} * ${2 * buckets - 1},
      date_trunc(${unitName}, ${at}::timestamptz at time zone ${timeZone}) + ${step},
      ${step}
    ) as local_start
    order by local_start`);
  const rows = result.rows.map((row) => ({ key: row.key, startsAt: new Date(row.starts_at) }));
  // 2n+1 boundaries: the last one is where the current (today's or this month's) bucket ends.
  return {
    range,
    timeZone,
    keys: rows.slice(0, 2 * buckets).map((row) => row.key),
    start: rows[0]!.startsAt,
    currentStart: rows[buckets]!.startsAt,
    end: rows[2 * buckets]!.startsAt,
    keyOf: (column) => sql`to_char(${column} at time zone ${timeZone}, ${format})`,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-23` → `Nov 23`, `2026-11` → `Nov 2026`. */
export function bucketLabel(key: string): string {
  const [year, month, day] = key.split('-');
  const name = MONTHS[Number(month) - 1];
  return day ? `${name} ${Number(day)}` : `${name} ${year}`;
}

/** A change against the previous period, for people: `+12.5%`, `−3.0%`, or `new` from zero. */
export function changeLabel(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'no change' : 'new';
  const permille = Math.round(((current - previous) * 1000) / Math.abs(previous));
  return `${permille >= 0 ? '+' : '−'}${(Math.abs(permille) / 10).toFixed(1)}%`;
}

/** A share as a percentage with one decimal, or `—` when there is nothing to share. */
export function shareLabel(part: number, total: number): string {
  return total === 0 ? '—' : `${(Math.round((part * 1000) / total) / 10).toFixed(1)}%`;
}
