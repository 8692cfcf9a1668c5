import type { z } from 'zod';
import type { Audience } from '../db/schema';
import type { OperationContract } from './operation';
import type { Permission } from './permissions';

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
  /** For seller endpoints: what the signed-in user's role must allow (checked on every call). */
  permission?: Permission;
  /** Runs the handler in one transaction (console mutations); sign-in flows commit their own steps. */
  transaction?: boolean;
}

export function defineSessionOperation<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TPermission extends Permission | undefined = undefined,
>(
  operation: SessionOperation<TParams, TQuery, TBody> & { permission?: TPermission },
): SessionOperation<TParams, TQuery, TBody> & { permission: TPermission } {
  return operation as SessionOperation<TParams, TQuery, TBody> & { permission: TPermission };
}
