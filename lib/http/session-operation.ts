import type { z } from 'zod';
import type { Audience } from '../db/schema';
import type { HttpMethod } from './operation';

/**
 * The contract of one sign-in-API endpoint (JWT family): who may call it and its input and
 * output schemas. `access: 'public'` endpoints (login, refresh, sign-up) take no access token.
 */
export interface SessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
> {
  id: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: readonly Audience[] | 'public';
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  response?: z.ZodType;
  successStatus?: number;
  /** Runs the handler in one transaction (console mutations); sign-in flows commit their own steps. */
  transaction?: boolean;
}

export function defineSessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
>(operation: SessionOperation<TParams, TQuery, TBody>): SessionOperation<TParams, TQuery, TBody> {
  return operation;
}
