import type { z } from 'zod';
import type { Audience } from '../db/schema';
import type { OperationAnswers, OperationContract } from './operation';
import type { Permission } from './permissions';

/**
 * The contract of one sign-in-API endpoint (JWT family): who may call it and its input and
 * output schemas. `access: 'public'` endpoints (login, refresh, sign-up) take no access token.
 * Every answer with a body declares its `response` schema; a 204 declares none.
 */
export interface SessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType | undefined = z.ZodType | undefined,
  TSuccess extends number = number,
  TAnswers extends OperationAnswers = OperationAnswers,
> extends OperationContract<TParams, TQuery, TBody, TSuccess, TAnswers> {
  access: readonly Audience[] | 'public';
  response?: TResponse;
  /** For seller endpoints: what the signed-in user's role must allow (checked on every call). */
  permission?: Permission;
  /** Runs the handler in one transaction (console mutations); sign-in flows commit their own steps. */
  transaction?: boolean;
}

/** A 204 declares no response schema; any other success status must declare one. */
type ResponseRule<TSuccess extends number> = [TSuccess] extends [204] ? { response?: undefined } : { response: z.ZodType };

export function defineSessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType | undefined = z.ZodType,
  TSuccess extends number = 200,
  TAnswers extends OperationAnswers = Record<never, never>,
  TPermission extends Permission | undefined = undefined,
>(
  operation: SessionOperation<TParams, TQuery, TBody, TResponse, TSuccess, TAnswers> & { permission?: TPermission } & ResponseRule<TSuccess>,
): SessionOperation<TParams, TQuery, TBody, TResponse, TSuccess, TAnswers> & { permission: TPermission } {
  return operation as SessionOperation<TParams, TQuery, TBody, TResponse, TSuccess, TAnswers> & { permission: TPermission };
}
