import { and, desc, eq, gte, lt, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys, apiRequestLogs } from '../db/schema';
import { now } from '../clock';

export const REQUEST_LOG_RETENTION_DAYS = 30;
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestLogFilters {
  statusClass?: StatusClass;
  /** A path prefix, such as `/api/Payment`. */
  path?: string;
  apiKeyId?: string;
  requestId?: string;
  /** Failed requests only (status 400 and up, on the partial index of failures). */
  failed?: boolean;
  /** Rows before this id (the next page of a newest-first list). */
  before?: number;
}

const PAGE = 50;

function conditions(merchantId: string, filters: RequestLogFilters): SQL[] {
  const where: SQL[] = [eq(apiRequestLogs.merchantId, merchantId), gte(apiRequestLogs.createdAt, retentionCutoff())];
  if (filters.statusClass) {
    const floor = Number(filters.statusClass[0]) * 100;
    where.push(gte(apiRequestLogs.status, floor), lt(apiRequestLogs.status, floor + 100));
  }
  if (filters.path) where.push(like(apiRequestLogs.path, `${filters.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (filters.apiKeyId) where.push(eq(apiRequestLogs.apiKeyId, filters.apiKeyId));
  if (filters.requestId) where.push(eq(apiRequestLogs.requestId, filters.requestId));
  if (filters.failed) where.push(gte(apiRequestLogs.status, 400));
  if (filters.before) where.push(lt(apiRequestLogs.id, filters.before));
  return where;
}

/**
 * A seller's API requests of the last 30 days, newest first, 50 at a time (keyset by id, so a
 * page costs the same at any depth of a million rows), with each key's name.
 */
export async function listRequestLogs(db: Db, merchantId: string, filters: RequestLogFilters, pageSize = PAGE) {
  const rows = await db
    .select({
      id: apiRequestLogs.id,
      requestId: apiRequestLogs.requestId,
      method: apiRequestLogs.method,
      path: apiRequestLogs.path,
      status: apiRequestLogs.status,
      durationMs: apiRequestLogs.durationMs,
      apiKeyId: apiRequestLogs.apiKeyId,
      apiKeyName: apiKeys.name,
      idempotencyKey: apiRequestLogs.idempotencyKey,
      replayed: apiRequestLogs.replayed,
      createdAt: apiRequestLogs.createdAt,
    })
    .from(apiRequestLogs)
    .leftJoin(apiKeys, eq(apiKeys.id, apiRequestLogs.apiKeyId))
    .where(and(...conditions(merchantId, filters)))
    .orderBy(desc(apiRequestLogs.id))
    .limit(pageSize + 1);
  return { data: rows.slice(0, pageSize), nextBefore: rows.length > pageSize ? rows[pageSize - 1]!.id : null };
}

/** One request by its `X-Request-Id`, with its (redacted) bodies when it failed. */
export async function findRequestLog(db: Db, merchantId: string, requestId: string) {
  const [row] = await db
    .select({ log: apiRequestLogs, apiKeyName: apiKeys.name })
    .from(apiRequestLogs)
    .leftJoin(apiKeys, eq(apiKeys.id, apiRequestLogs.apiKeyId))
    .where(and(...conditions(merchantId, { requestId })));
  return row ? { ...row.log, apiKeyName: row.apiKeyName } : undefined;
}

export const retentionCutoff = () => new Date(now().getTime() - REQUEST_LOG_RETENTION_DAYS * 86_400_000);

/** Deletes requests older than the retention, 10,000 rows per statement so no lock is held long. */
export async function pruneRequestLogs(db: Db, cutoff = retentionCutoff()): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from api_request_logs where id in (select id from api_request_logs where created_at < ${cutoff} limit 10000)`);
    removed += result.rowCount ?? 0;
    if (!result.rowCount) return removed;
  }
}
