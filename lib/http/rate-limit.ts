import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { config } from '../config';
import { ApiError } from '../errors';

interface WindowCount {
  accepted: boolean;
  /** Requests accepted in the window ending now, this one included when accepted. */
  used: number;
  /** Milliseconds until the oldest of them leaves the window (a slot frees up). */
  msUntilSlot: number;
}

/**
 * One statement counts a request in a sliding window shared by every web process: the key's row
 * keeps the times of its accepted requests still inside the window, oldest first; the request is
 * accepted when fewer than `limit` remain, and its time is added. The times that left the window
 * are found by a binary search (`width_bucket` over the sorted array) and cut off with a slice,
 * so a statement costs the same however many requests the window holds. Times are the
 * database's, so processes on machines whose clocks disagree count the same window; concurrent
 * requests of one key queue on its row (ON CONFLICT DO UPDATE locks it), so no two take the last
 * slot, and a time is never older than the one before it (the array stays sorted).
 */
async function countInWindow(db: Database, apiKeyId: string, limit: number, windowSeconds: number): Promise<WindowCount> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const times = sql`api_request_windows.accepted_at`;
  const expired = sql`width_bucket(statement_timestamp() - ${window}, ${times})`;
  const kept = sql`${times}[${expired} + 1:]`;
  const underLimit = sql`cardinality(${times}) - ${expired} < ${limit}`;
  const result = await db.execute<{ accepted: boolean; used: number; oldest: string }>(sql`
    insert into api_request_windows (api_key_id, accepted_at, last_accepted)
    values (${apiKeyId}, array[statement_timestamp()], true)
    on conflict (api_key_id) do update set
      accepted_at = case when ${underLimit}
        then ${kept} || greatest(statement_timestamp(), ${times}[cardinality(${times})])
        else ${kept} end,
      last_accepted = ${underLimit}
    returning last_accepted as accepted, cardinality(accepted_at) as used,
      (extract(epoch from (accepted_at[1] + ${window} - statement_timestamp())) * 1000)::float8 as oldest`);
  const row = result.rows[0]!;
  return { accepted: row.accepted, used: Number(row.used), msUntilSlot: Math.max(0, Number(row.oldest)) };
}

/** The `RateLimit-*` header fields (draft-ietf-httpapi-ratelimit-headers-06) of one count. */
function rateLimitHeaders(count: WindowCount, limit: number, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, limit - count.used)),
    'RateLimit-Reset': String(Math.max(1, Math.ceil(count.msUntilSlot / 1000))),
    'RateLimit-Policy': `${limit};w=${windowSeconds}`,
  };
}

/**
 * Counts one request of an API key against `API_RATE_LIMIT` requests per
 * `API_RATE_LIMIT_WINDOW_SECONDS` (any such window, across every process: docs/api.md "Rate
 * limits"): the headers every answer to it carries and, over the limit, the RATE_LIMITED refusal
 * to answer with, retried after the seconds until a request leaves the window.
 */
export async function countApiRequest(db: Database, apiKeyId: string): Promise<{ headers: Record<string, string>; refusal?: ApiError }> {
  const limit = config.http.apiRateLimit;
  const windowSeconds = config.http.apiRateLimitWindowSeconds;
  const count = await countInWindow(db, apiKeyId, limit, windowSeconds);
  const headers = rateLimitHeaders(count, limit, windowSeconds);
  if (count.accepted) return { headers };
  const reset = Number(headers['RateLimit-Reset']);
  const refusal = new ApiError('RATE_LIMITED', `This API key made ${limit} requests in the last ${windowSeconds} s. Retry after ${reset} s.`, {
    retryAfterSeconds: reset,
    extra: { limit, windowSeconds },
  });
  return { headers, refusal };
}

/** Deletes the rows of keys with no request left in their window. */
export async function purgeIdleApiRequestWindows(db: Database): Promise<number> {
  const result = await db.execute(sql`
    delete from api_request_windows
    where accepted_at[cardinality(accepted_at)] < statement_timestamp() - make_interval(secs => ${config.http.apiRateLimitWindowSeconds})`);
  return result.rowCount ?? 0;
}
