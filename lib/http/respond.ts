import { type ApiError, toProblem } from './errors';

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

export function jsonResponse(status: number, bodyText: string, headers: Record<string, string>): Response {
  return new Response(status === 204 ? null : bodyText, {
    status,
    headers: { 'Content-Type': status >= 400 ? PROBLEM_TYPE : JSON_TYPE, ...headers },
  });
}

export function problemResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, JSON.stringify(toProblem(error, requestId)), {
    'X-Request-Id': requestId,
    ...error.options.headers,
    ...headers,
  });
}
