/**
 * The API's failure vocabulary (the OpenAPI document's `Problem.code` enum, in this order). Which
 * HTTP status and title each answers is decided once, at the edge (lib/http/problem.ts).
 */
export const ERROR_CODES = [
  'TOKEN_EXPIRED',
  'INVALID_REFRESH_TOKEN',
  'UNAUTHENTICATED',
  'WRONG_TOKEN_TYPE',
  'INSUFFICIENT_SCOPE',
  'FORBIDDEN',
  'ACCOUNT_SUSPENDED',
  'VALIDATION_FAILED',
  'IDEMPOTENCY_KEY_REQUIRED',
  'NOT_FOUND',
  'CONFLICT',
  'VERSION_CONFLICT',
  'INVALID_STATE',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYMENT_DECLINED',
  'RATE_LIMITED',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  path: string;
  message: string;
}

export interface ApiErrorOptions {
  /** The fields at fault, each with its own sentence. */
  errors?: FieldError[];
  /** More members of the answer (a resource's `state`, a decline's `declineCode`…). */
  extra?: Record<string, unknown>;
  /** When trying again may succeed (a limit's window, a restarting database): answered as `Retry-After`. */
  retryAfterSeconds?: number;
}

/**
 * The one error type for expected failures, in the API's words: a code, a sentence, the fields at
 * fault. It carries no HTTP status: the edge answers it (lib/http/problem.ts, RFC 9457).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(detail);
  }
}

/** `fieldPath` names the body field that referenced the missing resource, when there is one. */
export function notFound(resource: string, id: string, fieldPath?: string): ApiError {
  const detail = `No ${resource} with id '${id}'.`;
  return new ApiError('NOT_FOUND', detail, fieldPath ? { errors: [{ path: fieldPath, message: detail }] } : {});
}

export function invalidField(path: string, message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', message, { errors: [{ path, message }] });
}
