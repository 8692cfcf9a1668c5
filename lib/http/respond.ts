import type { ApiError } from '../errors';
import { httpStatusOf, problemHeaders, toProblem } from './problem';

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

/**
 * A handler's answer when it is not the operation's default success status. The route wrappers
 * accept only the statuses the operation documents, each with its documented body
 * (lib/http/handler-result.ts).
 */
export class ApiResponse<TStatus extends number = number, TBody = unknown> {
  constructor(
    readonly status: TStatus,
    readonly body: TBody,
  ) {}
}

export function respond<TStatus extends number, TBody>(status: TStatus, body: TBody): ApiResponse<TStatus, TBody> {
  return new ApiResponse(status, body);
}

/** Below this size an answer is sent as it is: compressing it costs more CPU than it saves bytes. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * API answers are never stored by caches (`no-store`). Next.js gzips every answer a client
 * accepts gzip for, whatever its size (it streams the body, so its compression never sees a
 * length): `no-transform`, which it honours, keeps small answers uncompressed.
 */
export function jsonResponse(status: number, bodyText: string, headers: Record<string, string>): Response {
  return new Response(status === 204 ? null : bodyText, {
    status,
    headers: {
      'Content-Type': status >= 400 ? PROBLEM_TYPE : JSON_TYPE,
      'Cache-Control': bodyText.length < COMPRESS_FROM_BYTES ? 'no-store, no-transform' : 'no-store',
      ...headers,
    },
  });
}

export function problemResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(httpStatusOf(error), JSON.stringify(toProblem(error, requestId)), {
    'X-Request-Id': requestId,
    ...problemHeaders(error),
    ...headers,
  });
}
