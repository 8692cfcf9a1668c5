import { getDb } from '../db/client';
import { apiRequestLogs } from '../db/schema';
import { log } from '../log';
import { redactBody } from './redact';

type NewLog = typeof apiRequestLogs.$inferInsert;

/** What the API wrapper learned about a request while handling it. */
export interface SeenApiRequest {
  merchantId?: string;
  apiKeyId?: string;
  rawBody?: string;
}

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
  if (!seen.merchantId) return;
  const failed = response.status >= 400;
  const row: NewLog = {
    merchantId: seen.merchantId,
    requestId: response.headers.get('X-Request-Id') ?? 'unknown',
    method: request.method,
    path: new URL(request.url).pathname,
    status: response.status,
    durationMs: Math.round(durationMs),
    apiKeyId: seen.apiKeyId ?? null,
    // Read from the header, so a request refused before its key was checked still shows it.
    idempotencyKey: request.headers.get('idempotency-key')?.slice(0, 255) || null,
    replayed: response.headers.get('Idempotent-Replayed') === 'true',
    requestBody: failed ? redactBody(seen.rawBody) : null,
    createdAt: new Date(),
  };
  if (!failed) {
    enqueue(row);
    return;
  }
  // The error body is small JSON; reading a clone leaves the real answer untouched.
  response
    .clone()
    .text()
    .then((text) => enqueue({ ...row, responseBody: redactBody(text) }))
    .catch(() => enqueue(row));
}

function enqueue(row: NewLog) {
  if (buffer.waiting.length >= MAX_WAITING) {
    buffer.dropped += 1;
    return;
  }
  buffer.waiting.push(row);
  if (buffer.waiting.length >= BATCH) void flushRequestLogs();
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushRequestLogs(), FLUSH_EVERY_MS);
    buffer.timer.unref?.();
  }
}

/** Writes what is waiting, in batches; one flush at a time. Also called at shutdown and by tests. */
export async function flushRequestLogs(): Promise<void> {
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = undefined;
  if (buffer.flushing) return buffer.flushing;
  buffer.flushing = (async () => {
    while (buffer.waiting.length) {
      const batch = buffer.waiting.splice(0, BATCH);
      try {
        await getDb().insert(apiRequestLogs).values(batch).onConflictDoNothing();
      } catch (error) {
        log.warn({ err: error, rows: batch.length }, 'could not write API request logs');
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
