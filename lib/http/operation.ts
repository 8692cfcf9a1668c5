import type { z } from 'zod';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What every endpoint contract has, whichever credential family calls it. */
export interface OperationContract<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TSuccess extends number = number,
  TAnswers extends OperationAnswers = OperationAnswers,
> {
  id: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  /** 200 when not set; 204 answers no body. */
  successStatus?: TSuccess;
  /**
   * Answers this endpoint gives besides its success status and the errors every endpoint shares
   * (lib/server/openapi/responses.ts), by HTTP status: a problem+json answer is described by a sentence
   * naming its codes; another success carries its own schema.
   */
  answers?: TAnswers;
}

export type OperationAnswer = string | { description: string; schema: z.ZodType };
export type OperationAnswers = Record<number, OperationAnswer>;

/**
 * The contract of one developer-API endpoint: everything the route wrapper enforces and the
 * OpenAPI document describes comes from here, so the two cannot disagree.
 */
export interface Operation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
  TSuccess extends number = number,
  TAnswers extends OperationAnswers = OperationAnswers,
> extends OperationContract<TParams, TQuery, TBody, TSuccess, TAnswers> {
  scope: Scope;
  response: TResponse;
  /** `required` marks the spec's IK endpoints; `optional` lets any create be retried safely. */
  idempotency?: 'required' | 'optional';
  /** Moves money (the spec's FM marker); documented in the API reference. */
  financial?: boolean;
}

/**
 * Keeps the literal success status and answer statuses in the operation's type, so the route
 * wrapper can type its handler's result by them (lib/http/handler-result.ts).
 */
export function defineOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
  TSuccess extends number = 200,
  TAnswers extends OperationAnswers = Record<never, never>,
>(operation: Operation<TParams, TQuery, TBody, TResponse, TSuccess, TAnswers>): Operation<TParams, TQuery, TBody, TResponse, TSuccess, TAnswers> {
  return operation;
}
