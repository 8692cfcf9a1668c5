import type { z } from 'zod';
import { log } from '../log';
import { withRoundTripCount } from '../db/round-trips';
import { ApiError } from './errors';
import { problemResponse } from './respond';
import { newRequestId, queryObject, readJsonBody } from './request';
import { validationError } from './zod-errors';

/** Fields a wrapper learns while handling a request and adds to its log line. */
export type LogFields = Record<string, string | undefined>;

/**
 * What every route wrapper shares: a request id on every answer, errors as problem+json (an
 * unexpected error becomes a logged, generic 500) and one log line per request.
 */
export async function handleRequest(
  request: Request,
  run: (requestId: string, logFields: LogFields) => Promise<Response>,
): Promise<Response> {
  const requestId = newRequestId();
  const startedAt = performance.now();
  const logFields: LogFields = {};
  let response: Response;
  try {
    response = await withRoundTripCount(() => run(requestId, logFields));
    if (!response.headers.has('X-Request-Id')) response.headers.set('X-Request-Id', requestId);
  } catch (error) {
    response = errorResponse(error, requestId);
  }
  log.info(
    {
      requestId,
      method: request.method,
      path: new URL(request.url).pathname,
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

/** Parses path, query and body with the operation's zod schemas; a bad path id is a 404. */
export async function parseInput(operation: InputSchemas, params: Record<string, string>, url: URL, rawBody: string) {
  const parse = (schema: z.ZodType | undefined, value: unknown, location: 'path' | 'query' | 'body') => {
    if (!schema) return {};
    const result = schema.safeParse(value);
    if (!result.success) throw location === 'path' ? new ApiError('NOT_FOUND', 'No such resource.') : validationError(result.error, location);
    return result.data;
  };
  return {
    params: parse(operation.params, params, 'path'),
    query: parse(operation.query, queryObject(url), 'query'),
    body: operation.method === 'GET' ? {} : parse(operation.body, await readJsonBody(rawBody), 'body'),
  };
}
