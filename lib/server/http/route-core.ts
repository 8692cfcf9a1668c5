import type { z } from 'zod';
import { log } from '../../log';
import { withRoundTripCount } from '../../db/round-trips';
import { isDatabaseUnavailable } from '../../db/availability';
import { isTransientDatabaseError } from '../../db/errors';
import { ApiError } from '../../errors';
import { problemResponse } from '../../http/respond';
import { queryObject, readJsonBody } from '../../http/request';
import { clientInfo, requestIdOf } from '../../http/client-ip';
import { runInRequestContext } from '../../audit/request-context';
import { validationError } from '../../http/zod-errors';
import { refuseUnstorableText } from '../../http/input-checks';
import { apiSecurityHeaders } from '../../http/security-headers';
import { API_VERSION_HEADER, CURRENT_API_VERSION, requestedApiVersion } from '../../http/api-versions';

/**
 * Fields a wrapper learns while handling a request and adds to its log line. `apiVersion` is
 * the version the answer is made in (an API-key route sets its key's pinned one).
 */
export type LogFields = Record<string, string | undefined>;

/**
 * What every route wrapper shares: a request id, the API version and the security headers on
 * every answer, errors as problem+json (an unexpected error becomes a logged, generic 500) and
 * one log line per request. A `Paybase-Version` the server does not serve is refused (400)
 * before the route runs; an answer made in no requested or pinned version says the current one.
 */
export async function handleRequest(request: Request, run: (requestId: string, logFields: LogFields, url: URL) => Promise<Response>): Promise<Response> {
  const requestId = requestIdOf(request.headers);
  const startedAt = performance.now();
  const url = new URL(request.url);
  const logFields: LogFields = {};
  let response: Response;
  try {
    const context = { requestId, ip: clientInfo(request.headers).ip };
    logFields.apiVersion = requestedApiVersion(request.headers);
    response = await withRoundTripCount(() => runInRequestContext(context, () => run(requestId, logFields, url)));
    if (!response.headers.has('X-Request-Id')) response.headers.set('X-Request-Id', requestId);
  } catch (error) {
    response = errorResponse(error, requestId);
  }
  for (const [name, value] of Object.entries(apiSecurityHeaders())) response.headers.set(name, value);
  response.headers.set(API_VERSION_HEADER, logFields.apiVersion ?? CURRENT_API_VERSION);
  log.info(
    {
      requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      durationMs: Math.round(performance.now() - startedAt),
      ...logFields,
    },
    'request',
  );
  return response;
}

export function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) return problemResponse(error, requestId);
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error, requestId }, 'database unavailable');
    return problemResponse(new ApiError('SERVICE_UNAVAILABLE', 'The database cannot be reached; retry in a few seconds.', { retryAfterSeconds: 5 }), requestId);
  }
  if (isTransientDatabaseError(error)) {
    // A deadlock or serialization failure rolled the transaction it was in back; the same
    // request can succeed in a moment (a money move's recovery finishes one stopped mid-way).
    log.warn({ err: error, requestId }, 'transaction rolled back by the database');
    return problemResponse(
      new ApiError(
        'SERVICE_UNAVAILABLE',
        'The request ran into a concurrent change and was stopped; retry it (with the same Idempotency-Key, if it had one).',
        { retryAfterSeconds: 1 },
      ),
      requestId,
    );
  }
  log.error({ err: error, requestId }, 'unhandled error');
  return problemResponse(new ApiError('INTERNAL', 'Something went wrong on our side. The request id identifies it in our logs.'), requestId);
}

/** The parts of an operation that describe its input. */
export interface InputSchemas {
  method: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/**
 * Parses path, query and body with the operation's zod schemas; a bad path id is a 404. The body
 * is read as JSON once (nested at most MAX_JSON_DEPTH deep); `json` is that parsed body, before
 * its schema (the Idempotency-Key's fingerprint). A NUL character or a lone surrogate anywhere
 * (PostgreSQL can store neither) is a 400 naming the field, and an operation without a body
 * schema takes no body fields.
 */
export function parseInput(operation: InputSchemas, params: Record<string, string>, url: URL, rawBody: string) {
  const parse = (schema: z.ZodType | undefined, value: unknown, location: 'path' | 'query' | 'body') => {
    refuseUnstorableText(value, location);
    if (!schema) return {};
    const result = schema.safeParse(value);
    if (!result.success) throw location === 'path' ? new ApiError('NOT_FOUND', 'No such resource.') : validationError(result.error, location);
    return result.data;
  };
  const json = operation.method === 'GET' ? {} : readJsonBody(rawBody);
  if (operation.method !== 'GET' && !operation.body) refuseBodyFields(json);
  return {
    params: parse(operation.params, params, 'path'),
    query: parse(operation.query, queryObject(url), 'query'),
    body: operation.method === 'GET' ? {} : parse(operation.body, json, 'body'),
    json,
  };
}

function refuseBodyFields(body: unknown) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('VALIDATION_FAILED', 'This endpoint takes no body: send none or {}.', { errors: [{ path: 'body', message: 'Expected no body.' }] });
  }
  const keys = Object.keys(body);
  if (keys.length) {
    refuseUnstorableText(body, 'body');
    const errors = keys.map((key) => ({ path: key, message: 'Unknown field.' }));
    throw new ApiError('VALIDATION_FAILED', `This endpoint takes no body fields: ${keys.join(', ')}.`, { errors });
  }
}
