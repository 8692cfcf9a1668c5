import { and, asc, count, desc, gte, lte, type SQL } from 'drizzle-orm';
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
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...options.orderBy.map((column) => direction(column)))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ value: count() }).from(table as PgTable).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return {
    data: rows as TTable['$inferSelect'][],
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
