import type { components } from './schema.js';

/** An RFC 9457 problem as the API answers it. */
export type Problem = components['schemas']['Problem'];

/** Every stable error `code` the API answers. */
export type ErrorCode = Problem['code'];

/**
 * A non-2xx answer. Narrow on `code` with `isPaybaseError(error, 'PAYMENT_DECLINED')`; the
 * problem's own members (`errors`, `requiredScope`, `declineCode`, `payment`, …) are on `problem`.
 */
export class PaybaseError<TCode extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly code: TCode;
  readonly requestId: string | undefined;

  constructor(
    readonly problem: Problem & { code: TCode },
    status: number,
  ) {
    super(`${problem.code}: ${problem.detail}`);
    this.name = 'PaybaseError';
    this.status = status;
    this.code = problem.code;
    this.requestId = problem.requestId;
  }

  /** Wraps any error answer; a body that is not a problem (a proxy's HTML page) becomes INTERNAL. */
  static fromAnswer(status: number, body: unknown): PaybaseError {
    if (body && typeof body === 'object' && typeof (body as Problem).code === 'string') return new PaybaseError(body as Problem, status);
    const detail = typeof body === 'string' ? body.slice(0, 200) : `HTTP ${status}`;
    return new PaybaseError({ type: 'about:blank', title: 'Unexpected answer', status, detail, code: 'INTERNAL', requestId: '' }, status);
  }
}

export function isPaybaseError<TCode extends ErrorCode>(error: unknown, code?: TCode): error is PaybaseError<TCode> {
  return error instanceof PaybaseError && (code === undefined || error.code === code);
}
