import type { components } from './schema.js';

type Schemas = components['schemas'];

/** An RFC 9457 problem as the API answers it. */
export type Problem = Schemas['Problem'];

/** Every stable error `code` the API answers. */
export type ErrorCode = Problem['code'];

/**
 * The members a problem with this code adds to RFC 9457's (the document's `x-problem-extras`),
 * e.g. `declineCode` on PAYMENT_DECLINED, `state` on INVALID_STATE; `{}` for a code that adds none.
 */
export type ProblemExtras<TCode extends ErrorCode> = `${TCode}_Extras` extends keyof Schemas ? Schemas[`${TCode}_Extras`] : Record<never, never>;

/**
 * A non-2xx answer. After `isPaybaseError(error)`, `error.code === 'PAYMENT_DECLINED'` narrows
 * `error.extra` to that code's members (`declineCode`, …); `isPaybaseError(error, 'INVALID_STATE')`
 * does it at once. The whole problem is on `problem`.
 */
export class PaybaseError<TCode extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly code: TCode;
  readonly requestId: string | undefined;
  /** The problem's members beyond RFC 9457's, typed by `code`. */
  readonly extra: ProblemExtras<TCode>;

  constructor(
    readonly problem: Problem & { code: TCode },
    status: number,
  ) {
    super(`${problem.code}: ${problem.detail}`);
    this.name = 'PaybaseError';
    this.status = status;
    this.code = problem.code;
    this.requestId = problem.requestId;
    const { type: _type, title: _title, status: _status, detail: _detail, code: _code, requestId: _requestId, errors: _errors, ...extra } = problem;
    this.extra = extra as ProblemExtras<TCode>;
  }

  /** Wraps any error answer; a body that is not a problem (a proxy's HTML page) becomes INTERNAL. */
  static fromAnswer(status: number, body: unknown): AnyPaybaseError {
    if (body && typeof body === 'object' && typeof (body as Problem).code === 'string') return new PaybaseError(body as Problem, status) as AnyPaybaseError;
    const detail = typeof body === 'string' ? body.slice(0, 200) : `HTTP ${status}`;
    return new PaybaseError({ type: 'about:blank', title: 'Unexpected answer', status, detail, code: 'INTERNAL', requestId: '' }, status);
  }
}

/** A PaybaseError of any code, discriminated by `code`, so checking the code narrows `extra`. */
export type AnyPaybaseError = { [TCode in ErrorCode]: PaybaseError<TCode> }[ErrorCode];

export function isPaybaseError(error: unknown): error is AnyPaybaseError;
export function isPaybaseError<TCode extends ErrorCode>(error: unknown, code: TCode): error is PaybaseError<TCode>;
export function isPaybaseError(error: unknown, code?: ErrorCode): boolean {
  return error instanceof PaybaseError && (code === undefined || error.code === code);
}
