export type ErrorCode =
  | 'TOKEN_EXPIRED'
  | 'INVALID_REFRESH_TOKEN'
  | 'WRONG_TOKEN_TYPE'
  | 'UNAUTHENTICATED'
  | 'INSUFFICIENT_SCOPE'
  | 'FORBIDDEN'
  | 'ACCOUNT_SUSPENDED'
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'VERSION_CONFLICT'
  | 'INVALID_STATE'
  | 'IDEMPOTENCY_KEY_REQUIRED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'PAYMENT_DECLINED'
  | 'RATE_LIMITED'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL'
  | 'SERVICE_UNAVAILABLE';

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

/** Every code, in the order above (the OpenAPI document's `Problem.code` enum). */
export const ERROR_CODES = Object.keys(STATUS_AND_TITLE) as ErrorCode[];

export interface FieldError {
  path: string;
  message: string;
}

/** The one error type for expected failures; `toProblem` turns it into RFC 9457 problem details. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail);
    [this.status, this.title] = STATUS_AND_TITLE[code];
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
  return {
    ...error.options.extra,
    type: `https://paybase.dev/errors/${error.code.toLowerCase().replaceAll('_', '-')}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
    ...(error.options.errors ? { errors: error.options.errors } : {}),
  };
}
