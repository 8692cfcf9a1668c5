import { config } from '../config';
import { ApiError } from '../errors';
import { HttpRefusal } from './problem';
import { randomIdBytes } from '../ids';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeeplyNested } from './input-checks';

export function newRequestId(): string {
  return `req_${randomIdBytes(12).toString('base64url')}`;
}

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <credential>".');
  return match[1];
}

/**
 * A declared body up to this many times the limit is read and dropped after the 413, so a client
 * still sending it gets the answer rather than a reset connection (as nginx's lingering close).
 */
const DISCARDED_BODY_FACTOR = 8;

/**
 * `discard`: the rest of the body (its declared, bounded length) is read and dropped, keeping the
 * connection; otherwise it is never read, and the connection closes after the answer.
 */
export function payloadTooLarge(limit = config.http.maxBodyBytes, options: { discard?: boolean } = {}): ApiError {
  return new HttpRefusal(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${limit} bytes.`,
    { extra: { limitBytes: limit } },
    options.discard ? {} : { Connection: 'close' },
  );
}

/** Whether the rest of a declared body is small enough to read and drop (see DISCARDED_BODY_FACTOR). */
export function discardsDeclaredBody(contentLength: string | null | undefined, limit = config.http.maxBodyBytes): boolean {
  return Number(contentLength) <= limit * DISCARDED_BODY_FACTOR;
}

/** A declared Content-Length over the limit: refused before anything else reads the request. */
export function declaresTooLargeBody(contentLength: string | null | undefined, limit = config.http.maxBodyBytes): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > limit;
}

/**
 * Reads a request body as text, at most `config.http.maxBodyBytes` bytes: a declared
 * Content-Length over it is refused unread, a chunked body is cut off (413) as soon as it
 * passes the limit. A non-empty body must be JSON (`application/json` or `…+json`), else 415.
 */
export async function readBodyText(request: Request, limit = config.http.maxBodyBytes): Promise<string> {
  if (declaresTooLargeBody(request.headers.get('content-length'), limit)) throw payloadTooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() !== '' && !isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  return text;
}

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType ?? '');
}

/**
 * A body as JSON (`{}` when empty). Nesting deeper than MAX_JSON_DEPTH is refused before the
 * parse, so no later walk over the value can run out of stack or time.
 */
export function readJsonBody(rawBody: string): unknown {
  if (rawBody.trim() === '') return {};
  if (nestsDeeperThan(rawBody, MAX_JSON_DEPTH)) throw tooDeeplyNested();
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new ApiError('VALIDATION_FAILED', 'The request body is not valid JSON.', {
      errors: [{ path: 'body', message: 'Invalid JSON.' }],
    });
  }
}

export function queryObject(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return query;
}
