import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { usageRecords } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { usageResponses } from './usage-records';

export interface UsageFilters {
  customerId?: string;
  feature?: string;
  from?: Date;
  to?: Date;
}

function filtersOf(merchantId: string, filters: UsageFilters): (SQL | undefined)[] {
  return [
    eq(usageRecords.merchantId, merchantId),
    filters.customerId ? eq(usageRecords.customerId, filters.customerId) : undefined,
    filters.feature ? eq(usageRecords.feature, filters.feature) : undefined,
    filters.from ? gte(usageRecords.timestamp, filters.from) : undefined,
    filters.to ? lt(usageRecords.timestamp, filters.to) : undefined,
  ];
}

export async function listUsage(db: Db, merchantId: string, query: PageRequest & UsageFilters & { orderBy: 'createdAt' | 'timestamp' }) {
  const page = await paginate(db, usageRecords, {
    ...query,
    scope: [eq(usageRecords.merchantId, merchantId)],
    where: filtersOf(merchantId, query),
    orderBy: [query.orderBy === 'timestamp' ? usageRecords.timestamp : usageRecords.createdAt, usageRecords.id],
  });
  return { ...page, data: await usageResponses(db, page.data) };
}

/**
 * Usage totals per feature and day (UTC) or per metering period, reversed records left out:
 * the numbers behind charts and invoices.
 */
export async function summarizeUsage(db: Db, merchantId: string, query: UsageFilters & { groupBy: 'day' | 'period' }) {
  const where = and(...filtersOf(merchantId, query), sql`${usageRecords.reversedAt} is null`);
  const key =
    query.groupBy === 'day' ? sql<string>`to_char(${usageRecords.timestamp} at time zone 'UTC', 'YYYY-MM-DD')` : sql<string>`${usageRecords.periodKey}`;
  const rows = await db
    .select({
      feature: usageRecords.feature,
      key: key.as('key'),
      quantity: sql<number>`sum(${usageRecords.quantity})::int`,
      amount: sql<number>`sum(${usageRecords.amount})::int`,
      records: sql<number>`count(*)::int`,
      first: sql<string>`min(${usageRecords.timestamp})`,
    })
    .from(usageRecords)
    .where(where)
    .groupBy(usageRecords.feature, sql`2`)
    .orderBy(usageRecords.feature, sql`min(${usageRecords.timestamp})`);
  const periods =
    query.groupBy === 'period' ? await periodBounds(db, merchantId, query.customerId) : new Map<string, { start: Date | null; end: Date | null }>();
  return {
    groupBy: query.groupBy,
    data: rows.map((row) => {
      const bounds =
        query.groupBy === 'day'
          ? { start: new Date(`${row.key}T00:00:00Z`), end: new Date(new Date(`${row.key}T00:00:00Z`).getTime() + 86_400_000) }
          : (periods.get(row.key) ?? { start: null, end: null });
      return {
        feature: row.feature,
        key: row.key,
        start: bounds.start?.toISOString() ?? null,
        end: bounds.end?.toISOString() ?? null,
        quantity: row.quantity,
        amount: row.amount,
        records: row.records,
      };
    }),
  };
}

async function periodBounds(db: Db, merchantId: string, customerId: string | undefined) {
  const rows = await db.execute<{ period_key: string; period_start: string | null; period_end: string | null }>(sql`
    select distinct on (period_key) period_key, period_start, period_end from usage_counters
    where merchant_id = ${merchantId} ${customerId ? sql`and customer_id = ${customerId}` : sql``}`);
  return new Map(
    rows.rows.map((row) => [
      row.period_key,
      { start: row.period_start ? new Date(row.period_start) : null, end: row.period_end ? new Date(row.period_end) : null },
    ]),
  );
}
