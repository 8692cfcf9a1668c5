import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { apiRequestLogs } from '../db/schema';
import { writeIsolating } from '../db/isolating-writes';
import { log } from '../log';
import { storableText } from '../stored-text';
import { redactBody } from './redact';

/**
 * A waiting row, its fields named as the table's columns: a batch goes to PostgreSQL as one JSON
 * parameter (`json_populate_recordset`), so writing 500 rows costs the server one JSON.stringify
 * instead of building and binding a 6,000-parameter statement.
 */
interface NewLog {
  merchant_id: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  api_key_id: string | null;
  idempotency_key: string | null;
  replayed: boolean;
  request_body: string | null;
  response_body?: string | null;
  created_at: string;
}
/** Exactly NewLog's fields (the compiler checks both ways): a field the statement does not list would be dropped silently. */
const LOGGED_COLUMNS: Record<keyof NewLog, true> = {
  merchant_id: true,
  request_id: true,
  method: true,
  path: true,
  status: true,
  duration_ms: true,
  api_key_id: true,
  idempotency_key: true,
  replayed: true,
  request_body: true,
  response_body: true,
  created_at: true,
};
const COLUMNS = sql.raw(Object.keys(LOGGED_COLUMNS).join(', '));

/** What the API wrapper learned about a request while handling it. */
export interface SeenApiRequest {
  /** The URL's path, known before the key is checked. */
  path?: string;
  merchantId?: string;
  apiKeyId?: string;
  rawBody?: string;
}

/** The most of a request's path that is kept. */
const PATH_LIMIT = 2048;
const FLUSH_EVERY_MS = 500;
const BATCH = 500;
/** Beyond this many waiting rows (database down), new ones are dropped rather than grow memory. */
const MAX_WAITING = 20_000;

const state = globalThis as unknown as { __paybaseRequestLogs?: { waiting: NewLog[]; timer?: NodeJS.Timeout; flushing?: Promise<void>; dropped: number } };
state.__paybaseRequestLogs ??= { waiting: [], dropped: 0 };
const buffer = state.__paybaseRequestLogs;

/**
 * Notes a developer-API request for Developers → Logs. Never awaited by the request: the row
 * waits in memory and is written with others in one insert, after the answer is sent. Requests
 * that never reached a seller (no or unknown API key) are not logged: they belong to nobody.
 */
export function recordApiRequest(request: Request, response: Response, seen: SeenApiRequest, durationMs: number): void {
  if (!seen.merchantId || seen.path === undefined) return;
  const failed = response.status >= 400;
  const row: NewLog = {
    merchant_id: seen.merchantId,
    request_id: response.headers.get('X-Request-Id') ?? 'unknown',
    method: request.method,
    path: storableText(seen.path, PATH_LIMIT),
    status: response.status,
    duration_ms: Math.round(durationMs),
    api_key_id: seen.apiKeyId ?? null,
    // Read from the header, so a request refused before its key was checked still shows it.
    idempotency_key: storableText(request.headers.get('idempotency-key'), 255) || null,
    replayed: response.headers.get('Idempotent-Replayed') === 'true',
    request_body: failed ? redactBody(seen.rawBody) : null,
    created_at: new Date().toISOString(),
  };
  if (!failed) {
    enqueue(row);
    return;
  }
  // The error body is small JSON; reading a clone leaves the real answer untouched.
  response
    .clone()
    .text()
    .then((text) => enqueue({ ...row, response_body: redactBody(text) }))
    .catch(() => enqueue(row));
}

function enqueue(row: NewLog) {
  if (buffer.waiting.length >= MAX_WAITING) {
    buffer.dropped += 1;
    return;
  }
  buffer.waiting.push(row);
  if (buffer.waiting.length >= BATCH) void flushRequestLogs();
  else scheduleFlush(FLUSH_EVERY_MS);
}

function scheduleFlush(delayMs: number) {
  if (buffer.timer) return;
  buffer.timer = setTimeout(() => void flushRequestLogs(), delayMs);
  buffer.timer.unref?.();
}

async function insertLogs(rows: NewLog[]): Promise<void> {
  await getDb().execute(sql`insert into ${apiRequestLogs} (${COLUMNS})
    select ${COLUMNS} from json_populate_recordset(null::${apiRequestLogs}, ${JSON.stringify(rows)}::json)
    on conflict do nothing`);
}

/**
 * Writes what is waiting, in batches; one flush at a time. Also called at shutdown and by tests.
 * A row PostgreSQL refuses is dropped alone (lib/db/isolating-writes.ts), never its batch; while
 * the database cannot be reached, the rows wait (up to MAX_WAITING) for the next flush.
 */
export async function flushRequestLogs(): Promise<void> {
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = undefined;
  if (buffer.flushing) return buffer.flushing;
  buffer.flushing = (async () => {
    while (buffer.waiting.length) {
      const batch = buffer.waiting.splice(0, BATCH);
      const unwritten = await writeIsolating(batch, insertLogs, async (row, error) => {
        log.warn({ err: error, merchantId: row.merchant_id, requestId: row.request_id }, 'an API request log was refused by the database and dropped');
      });
      if (unwritten.length > 0) {
        const kept = unwritten.slice(0, Math.max(0, MAX_WAITING - buffer.waiting.length));
        buffer.waiting.unshift(...kept);
        buffer.dropped += unwritten.length - kept.length;
        log.warn({ waiting: buffer.waiting.length }, 'could not write API request logs: the database is unavailable');
        scheduleFlush(FLUSH_EVERY_MS);
        break;
      }
    }
    if (buffer.dropped) {
      log.warn({ dropped: buffer.dropped }, 'API request logs dropped while the database was unavailable');
      buffer.dropped = 0;
    }
  })().finally(() => {
    buffer.flushing = undefined;
  });
  return buffer.flushing;
}
