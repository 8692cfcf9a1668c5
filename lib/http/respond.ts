import { type ApiError, toProblem } from './errors';

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

/** A handler's answer when it is not the operation's default success status. */
export class ApiResponse<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

export function respond<T>(status: number, body: T): ApiResponse<T> {
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
