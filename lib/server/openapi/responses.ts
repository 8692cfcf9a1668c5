import type { ZodOpenApiParameterObject } from 'zod-openapi';
import type { Operation, OperationAnswer } from '../../http/operation';
import type { SessionOperation } from '../../http/session-operation';

/** An answer that refers to a shared response component. */
type Ref = { $ref: string };
const ref = (name: string): Ref => ({ $ref: `#/components/responses/${name}` });

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Every answer says the API version it is made in (docs/changelog.md). */
export const versionHeaderRef = () => ({ 'Paybase-Version': headerRef('Paybase-Version') });

const problem = (description: string) => ({
  description,
  headers: versionHeaderRef(),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The quota header fields on every answer to an API-key request (docs/api.md, "Rate limits"). */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { schema: { type: 'integer' as const }, description: "Requests this API key may make per window (this server process's count)." },
  'RateLimit-Remaining': { schema: { type: 'integer' as const }, description: 'Requests left in the current window.' },
  'RateLimit-Reset': { schema: { type: 'integer' as const }, description: 'Seconds until the current window ends.' },
  'RateLimit-Policy': { schema: { type: 'string' as const }, description: 'The policy: `<limit>;w=<window seconds>`, e.g. `100;w=1`.' },
};
export const rateLimitHeaderRefs = () => Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, headerRef(name)]));

/** The response headers documented once under `components.headers`. */
export const RESPONSE_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'Paybase-Version': {
    schema: { type: 'string' as const },
    description: "The API version the answer is made in: the request's `Paybase-Version`, else the API key's pinned version (docs/changelog.md).",
  },
};

/** Answers any endpoint may give, documented once under `components.responses`. */
export const SHARED_RESPONSES = {
  BadRequest: problem('Invalid input: VALIDATION_FAILED with `errors[]` naming each field, or IDEMPOTENCY_KEY_REQUIRED.'),
  Unauthenticated: problem(
    'UNAUTHENTICATED: no credential, or an unknown, expired or revoked one; TOKEN_EXPIRED or INVALID_REFRESH_TOKEN on the sign-in APIs.',
  ),
  Forbidden: problem('WRONG_TOKEN_TYPE (a credential of the other family or audience), INSUFFICIENT_SCOPE (`requiredScope` names it) or FORBIDDEN (role).'),
  NotFound: problem('NOT_FOUND: no such resource, or one owned by another seller.'),
  IdempotencyKeyInUse: {
    ...problem('IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds.'),
    headers: { ...versionHeaderRef(), 'Retry-After': { schema: { type: 'integer' as const }, description: 'Seconds to wait before retrying.' } },
  },
  IdempotencyKeyReused: problem('IDEMPOTENCY_KEY_REUSED: the key was used with another request (method, path or body).'),
  RateLimited: {
    ...problem('RATE_LIMITED: too many attempts; retry after `Retry-After` seconds.'),
    headers: { ...versionHeaderRef(), 'Retry-After': { schema: { type: 'integer' as const }, description: 'Seconds to wait before retrying.' } },
  },
  ApiRateLimited: {
    ...problem(
      'RATE_LIMITED: this API key made more requests than its limit in the current window (docs/api.md, "Rate limits"); retry after `Retry-After` seconds. Nothing was executed.',
    ),
    headers: {
      ...versionHeaderRef(),
      'Retry-After': { schema: { type: 'integer' as const }, description: 'Seconds until the window resets.' },
      ...rateLimitHeaderRefs(),
    },
  },
  PayloadTooLarge: problem('PAYLOAD_TOO_LARGE: the body is larger than the limit (docs/api.md, "Limits"); refused before it is read.'),
  UnsupportedMediaType: problem('UNSUPPORTED_MEDIA_TYPE: a body that is not sent as `application/json`.'),
  Internal: problem('INTERNAL: an unexpected failure; `requestId` identifies it in the logs. Never a stack or SQL.'),
  ServiceUnavailable: {
    ...problem(
      'SERVICE_UNAVAILABLE: the database cannot be reached (or the embedded one is restarting), or — `reason: "payment_needs_review"` with its `paymentId` — a money move waits for the platform operator to settle its charge (docs/operations.md). Retry after `Retry-After` seconds, with the same Idempotency-Key where the request has one: this answer is never stored under it.',
    ),
    headers: { ...versionHeaderRef(), 'Retry-After': { schema: { type: 'integer' as const }, description: 'Seconds to wait before retrying.' } },
  },
};

/** What an operation that reads a body can answer before parsing it. */
const bodyErrors = (body: unknown): Record<string, Ref> => (body ? { '413': ref('PayloadTooLarge'), '415': ref('UnsupportedMediaType') } : {});

const IdempotencyKeyHeader = { type: 'string' as const, minLength: 1, maxLength: 255 };

/** The `Idempotency-Key` header (DESIGN 4.7), required on the spec's IK endpoints. */
export const REQUEST_HEADER_PARAMETERS: Record<string, ZodOpenApiParameterObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header' as const,
    required: true,
    description: 'Required. A repeat within 24 h with the same request replays the first answer (`Idempotent-Replayed: true`).',
    schema: IdempotencyKeyHeader,
  },
  OptionalIdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header' as const,
    required: false,
    description: 'Optional. Makes a create safe to retry: a repeat within 24 h replays the first answer.',
    schema: IdempotencyKeyHeader,
  },
  RequestedApiVersion: {
    name: 'Paybase-Version',
    in: 'header' as const,
    required: false,
    description:
      "The dated API version to answer in (docs/changelog.md). Without it, the API key's pinned version applies; an unknown version is a 400 VALIDATION_FAILED listing `knownVersions`.",
    schema: { type: 'string' as const, pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2026-11-27' },
  },
};

function ownAnswer(answer: OperationAnswer) {
  if (typeof answer === 'string') return problem(answer);
  return { description: answer.description, headers: versionHeaderRef(), content: { 'application/json': { schema: answer.schema } } };
}

/** Every status a developer-API operation can answer besides its success. */
export function developerErrorResponses(operation: Operation) {
  return {
    '400': ref('BadRequest'),
    '401': ref('Unauthenticated'),
    '403': ref('Forbidden'),
    ...(operation.params || operation.body ? { '404': ref('NotFound') } : {}),
    ...(operation.idempotency ? { '409': ref('IdempotencyKeyInUse'), '422': ref('IdempotencyKeyReused') } : {}),
    ...bodyErrors(operation.body),
    '429': ref('ApiRateLimited'),
    ...ownAnswers(operation.answers, operation.idempotency !== undefined),
    '500': ref('Internal'),
    '503': ref('ServiceUnavailable'),
  };
}

/** Every status a sign-in-API operation can answer besides its success. */
export function sessionErrorResponses(operation: SessionOperation) {
  return {
    '400': ref('BadRequest'),
    '401': ref('Unauthenticated'),
    '403': ref('Forbidden'),
    ...(operation.params ? { '404': ref('NotFound') } : {}),
    '429': ref('RateLimited'),
    ...bodyErrors(operation.body),
    ...ownAnswers(operation.answers),
    '500': ref('Internal'),
    '503': ref('ServiceUnavailable'),
  };
}

/** On an IK endpoint an operation's own 409 also covers IDEMPOTENCY_KEY_IN_USE. */
function ownAnswers(answers: Operation['answers'], idempotent = false) {
  return Object.fromEntries(
    Object.entries(answers ?? {}).map(([status, answer]) => {
      if (status === '409' && idempotent && typeof answer === 'string') {
        return [status, { ...SHARED_RESPONSES.IdempotencyKeyInUse, description: `${answer} Or ${SHARED_RESPONSES.IdempotencyKeyInUse.description}` }];
      }
      return [status, ownAnswer(answer)];
    }),
  );
}
