import type { z } from 'zod';
import type { Audience } from '../db/schema';
import type { OperationContract } from './operation';

/**
 * The contract of one sign-in-API endpoint (JWT family): who may call it and its input and
 * output schemas. `access: 'public'` endpoints (login, refresh, sign-up) take no access token.
 */
export interface SessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
> extends OperationContract<TParams, TQuery, TBody> {
  access: readonly Audience[] | 'public';
  response?: z.ZodType;
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
