import { ApiError, type ApiErrorOptions, type ErrorCode, type FieldError } from '../errors';

/** The one place an error code becomes an HTTP status and title. */
const STATUS_AND_TITLE: Record<ErrorCode, [number, string]> = {
  TOKEN_EXPIRED: [401, 'Access token expired'],
  INVALID_REFRESH_TOKEN: [401, 'Invalid refresh token'],
  UNAUTHENTICATED: [401, 'Unauthenticated'],
  WRONG_TOKEN_TYPE: [403, 'Wrong token type'],
  INSUFFICIENT_SCOPE: [403, 'Insufficient scope'],
  FORBIDDEN: [403, 'Forbidden'],
  ACCOUNT_SUSPENDED: [403, 'Account suspended'],
  VALIDATION_FAILED: [400, 'Validation failed'],
  IDEMPOTENCY_KEY_REQUIRED: [400, 'Idempotency-Key required'],
  NOT_FOUND: [404, 'Not found'],
  CONFLICT: [409, 'Conflict'],
  VERSION_CONFLICT: [409, 'Version conflict'],
  INVALID_STATE: [409, 'Invalid state'],
  IDEMPOTENCY_KEY_IN_USE: [409, 'Idempotency-Key in use'],
  IDEMPOTENCY_KEY_REUSED: [422, 'Idempotency-Key reused'],
  PAYMENT_DECLINED: [402, 'Payment declined'],
  RATE_LIMITED: [429, 'Too many requests'],
  METHOD_NOT_ALLOWED: [405, 'Method not allowed'],
  PAYLOAD_TOO_LARGE: [413, 'Payload too large'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Unsupported media type'],
  INTERNAL: [500, 'Internal error'],
  SERVICE_UNAVAILABLE: [503, 'Service unavailable'],
};

export function httpStatusOf(error: ApiError): number {
  return STATUS_AND_TITLE[error.code][0];
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  errors?: FieldError[];
  [extra: string]: unknown;
}

/** The RFC 9457 members come last, so no `extra` member can overwrite them (a resource's state is `state`). */
export function toProblem(error: ApiError, requestId: string): Problem {
  const [status, title] = STATUS_AND_TITLE[error.code];
  return {
    ...error.options.extra,
    type: `https://paybase.dev/errors/${error.code.toLowerCase().replaceAll('_', '-')}`,
    title,
    status,
    detail: error.detail,
    code: error.code,
    requestId,
    ...(error.options.errors ? { errors: error.options.errors } : {}),
  };
}

/** A refusal made at the edge that needs headers of its own (`Connection: close` after a body too large to read). */
export class HttpRefusal extends ApiError {
  constructor(
    code: ErrorCode,
    detail: string,
    options: ApiErrorOptions,
    readonly headers: Record<string, string>,
  ) {
    super(code, detail, options);
  }
}

/** The headers an error's answer carries beside the problem: `Retry-After` when trying again may succeed. */
export function problemHeaders(error: ApiError): Record<string, string> {
  return {
    ...(error.options.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.options.retryAfterSeconds) }),
    ...(error instanceof HttpRefusal ? error.headers : {}),
  };
}
