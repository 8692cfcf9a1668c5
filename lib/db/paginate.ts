import { and, asc, count, desc, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

export interface PageRequest {
  page: number;
  pageSize: number;
  orderDirection: 'asc' | 'desc';
  createdFrom?: Date;
  createdTo?: Date;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  totalCount: number;
  hasMore: boolean;
}

const TOTAL = '__totalCount';

/**
 * Offset paging over one table with a stable order: `orderBy` lists the requested column
 * first, then a unique tie-breaker (usually the creation-sortable id).
 */
export async function paginate<TTable extends PgTable & { createdAt: PgColumn }>(
  db: Db,
  table: TTable,
  options: PageRequest & { where: (SQL | undefined)[]; orderBy: [PgColumn, PgColumn] },
): Promise<Page<TTable['$inferSelect']>> {
  const where = and(
    ...options.where,
    options.createdFrom ? gte(table.createdAt, options.createdFrom) : undefined,
    options.createdTo ? lte(table.createdAt, options.createdTo) : undefined,
  );
  const direction = options.orderDirection === 'asc' ? asc : desc;
  // One statement: the page and, on each of its rows, the total (a window over the whole match).
  const rows = await db
    .select({ ...getTableColumns(table as PgTable), [TOTAL]: sql<number>`count(*) over()`.mapWith(Number) })
    .from(table as PgTable)
    .where(where)
    .orderBy(...options.orderBy.map((column) => direction(column)))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  let totalCount = (rows[0]?.[TOTAL] as number | undefined) ?? 0;
  if (rows.length === 0 && options.page > 1) {
    // Past the last page no row carries the total: count on its own.
    const [total] = await db.select({ value: count() }).from(table as PgTable).where(where);
    totalCount = total?.value ?? 0;
  }
  return {
    data: rows.map(({ [TOTAL]: _total, ...row }) => row) as TTable['$inferSelect'][],
    page: options.page,
    pageSize: options.pageSize,
    totalCount,
    hasMore: options.page * options.pageSize < totalCount,
  };
}

/** Applies `fn` to every row of a page, keeping the paging fields. */
export function mapPage<T, U>(page: Page<T>, fn: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(fn) };
}
