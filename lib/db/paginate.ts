import { and, asc, count, desc, eq, getTableColumns, getTableName, gte, lte, sql, type SQL } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { COLUMN_CASING, type Db } from './client';
import { ApiError } from '../errors';

export interface PageRequest {
  /** Offset paging (default 1); never together with a cursor. */
  page?: number;
  pageSize: number;
  orderDirection: 'asc' | 'desc';
  createdFrom?: Date;
  createdTo?: Date;
  /** Cursor paging: the items after (or before) the item with this id, in the list's order. */
  startingAfter?: string;
  endingBefore?: string;
}

export interface Page<T> {
  data: T[];
  /** The page number; 0 on a cursor page (it has none). */
  page: number;
  pageSize: number;
  totalCount: number;
  /** Whether more items follow, in the direction of paging (before the first item for `endingBefore`). */
  hasMore: boolean;
}

interface ListQuery extends PageRequest {
  /** What makes the list: the seller (and the parent of a nested list). A cursor must be an item of it. */
  scope: (SQL | undefined)[];
  /** The list's filters: a cursor item need not match them (it may have changed since). */
  where: (SQL | undefined)[];
  /** The requested column, then a unique tie-breaker: the items' id, which a cursor names. */
  orderBy: [PgColumn, PgColumn];
}

const casing = new CasingCache(COLUMN_CASING);

/** A table's select list, written once, and how each column's value is decoded. */
interface RowShape {
  selectList: SQL;
  columns: { key: string; name: string; decode: (value: unknown) => unknown }[];
  /** Whether a row has shown every column under its expected name (checked once). */
  checked: boolean;
}
const rowShapes = new WeakMap<PgTable, RowShape>();

function rowShape(table: PgTable): RowShape {
  let shape = rowShapes.get(table);
  if (!shape) {
    const tableName = getTableName(table);
    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
      key,
      name: casing.getColumnCasing(column),
      decode: (value: unknown) => column.mapFromDriverValue(value),
    }));
    shape = { selectList: sql.raw(columns.map(({ name }) => `"${tableName}"."${name}"`).join(', ')), columns, checked: false };
    rowShapes.set(table, shape);
  }
  return shape;
}

/**
 * A page's rows with a total on each. Every list of the API reads its page here, so the select
 * list of all the table's columns is written once per table instead of by the query builder on
 * every request, and columns are decoded as drizzle's select decodes them (`mapFromDriverValue`,
 * null stays null) without its per-field checks: the two took about a sixth of a list request's
 * server CPU (bench/RESULTS.md).
 */
async function selectRows(
  db: Db,
  table: PgTable,
  query: { total: SQL; where: SQL | undefined; orderBy: SQL[]; limit: number; offset?: number },
): Promise<{ item: Record<string, unknown>; total: number }[]> {
  const shape = rowShape(table);
  const result = await db.execute<Record<string, unknown>>(sql`
    select ${shape.selectList}, ${query.total} as "__total" from ${table}
    where ${query.where ?? sql`true`} order by ${sql.join(query.orderBy, sql`, `)}
    limit ${query.limit}${query.offset ? sql` offset ${query.offset}` : sql``}`);
  if (!shape.checked && result.rows[0]) {
    const missing = shape.columns.filter(({ name }) => !(name in result.rows[0]!));
    if (missing.length > 0) throw new Error(`${getTableName(table)}: no column ${missing.map(({ name }) => name).join(', ')} in the page's rows`);
    shape.checked = true;
  }
  return result.rows.map((raw) => {
    const item: Record<string, unknown> = {};
    for (const { key, name, decode } of shape.columns) {
      const value = raw[name];
      item[key] = value === null ? null : decode(value);
    }
    return { item, total: Number(raw.__total) };
  });
}

/**
 * One page of a list, in a stable order. Offset paging (`page`) counts the whole match in the
 * same statement. Cursor paging (`startingAfter` / `endingBefore`) is a keyset query: it reads
 * the rows after the cursor item's sort values through the list's index, so a page deep in the
 * list costs what the first does; the cursor item's values are looked up inside the statement.
 */
export async function paginate<TTable extends PgTable & { createdAt: PgColumn }>(
  db: Db,
  table: TTable,
  options: ListQuery,
): Promise<Page<TTable['$inferSelect']>> {
  const scope = and(...options.scope);
  // Always a condition: a list with no scope and no filter (the admin's sellers) still writes `where true`.
  const match =
    and(
      scope,
      ...options.where,
      options.createdFrom ? gte(table.createdAt, options.createdFrom) : undefined,
      options.createdTo ? lte(table.createdAt, options.createdTo) : undefined,
    ) ?? sql`true`;
  const cursor = options.startingAfter ?? options.endingBefore;
  if (cursor !== undefined) return cursorPage(db, table, options, { scope, match, cursor });

  const page = options.page ?? 1;
  const direction = options.orderDirection === 'asc' ? asc : desc;
  // One statement: the page and, on each of its rows, the total (a window over the whole match).
  const rows = await selectRows(db, table, {
    total: sql`count(*) over()`,
    where: match,
    orderBy: options.orderBy.map((column) => direction(column)),
    limit: options.pageSize,
    offset: (page - 1) * options.pageSize,
  });
  let totalCount = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    // Past the last page no row carries the total: count on its own.
    const [total] = await db
      .select({ value: count() })
      .from(table as PgTable)
      .where(match);
    totalCount = total?.value ?? 0;
  }
  return numberedPage(rows.map((row) => row.item) as TTable['$inferSelect'][], { page, pageSize: options.pageSize }, totalCount);
}

/** A numbered page's envelope: whether more follow is read from the total. */
export function numberedPage<T>(data: T[], query: { page: number; pageSize: number }, totalCount: number): Page<T> {
  return { data, page: query.page, pageSize: query.pageSize, totalCount, hasMore: query.page * query.pageSize < totalCount };
}

async function cursorPage<TTable extends PgTable & { createdAt: PgColumn }>(
  db: Db,
  table: TTable,
  options: ListQuery,
  { scope, match, cursor }: { scope: SQL | undefined; match: SQL; cursor: string },
): Promise<Page<TTable['$inferSelect']>> {
  const parameter = options.startingAfter !== undefined ? 'startingAfter' : 'endingBefore';
  const [orderColumn, idColumn] = options.orderBy;
  if (!orderColumn.notNull) {
    throw new ApiError(
      'VALIDATION_FAILED',
      `Invalid query: ${parameter}: cursors follow an order every item has a value for; use another orderBy (e.g. createdAt) or page.`,
      {
        errors: [{ path: parameter, message: 'Not available with this orderBy (some items have no value for it).' }],
      },
    );
  }
  // Walking backwards (`endingBefore`) reads the list in the opposite order, then turns the page round.
  const forward = parameter === 'startingAfter';
  const ascending = (options.orderDirection === 'asc') === forward;
  const cursorItem = and(eq(idColumn, cursor), scope);
  // Each value is an uncorrelated sub-select PostgreSQL runs once, before the index scan it bounds.
  const cursorValue = (column: PgColumn) => sql`(select ${column} from ${table} where ${cursorItem})`;
  const after = sql`(${orderColumn}, ${idColumn}) ${sql.raw(ascending ? '>' : '<')} (${cursorValue(orderColumn)}, ${cursorValue(idColumn)})`;
  const direction = ascending ? asc : desc;
  const rows = await selectRows(db, table, {
    total: sql`(select count(*) from ${table} where ${match})`,
    where: and(match, after),
    orderBy: options.orderBy.map((column) => direction(column)),
    limit: options.pageSize + 1,
  });
  let totalCount = rows[0]?.total ?? 0;
  if (rows.length === 0) {
    // No row after the cursor, or no such cursor item in this list: tell them apart.
    const [found] = await db
      .select({ total: sql<number>`(select count(*) from ${table} where ${match})`.mapWith(Number) })
      .from(table as PgTable)
      .where(cursorItem);
    if (!found) {
      throw new ApiError('VALIDATION_FAILED', `Invalid query: ${parameter}: no item '${cursor}' in this list.`, {
        errors: [{ path: parameter, message: `No item with id '${cursor}' in this list.` }],
      });
    }
    totalCount = found.total;
  }
  const data = rows.slice(0, options.pageSize).map((row) => row.item) as TTable['$inferSelect'][];
  return { data: forward ? data : data.reverse(), page: 0, pageSize: options.pageSize, totalCount, hasMore: rows.length > options.pageSize };
}

/** Applies `fn` to every row of a page, keeping the paging fields. */
export function mapPage<T, U>(page: Page<T>, fn: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(fn) };
}
