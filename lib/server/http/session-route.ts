import type { z } from 'zod';
import { getDb, type Db } from '../../db/client';
import { looksLikeJwt } from '../../auth/jwt-shape';
import { authenticateAccessToken, type SessionPrincipal } from '../../auth/sessions';
import type { ClientInfo } from '../../http/client-ip';
import { ApiError } from '../../errors';
import { ApiResponse, jsonResponse } from '../../http/respond';
import { bearerToken, readBodyText } from '../../http/request';
import { handleRequest, parseInput } from './route-core';
import { clientInfo } from '../../http/client-ip';
import type { SessionOperation } from '../../http/session-operation';
import type { HandlerResult } from '../../http/handler-result';
import { authorizeSeller, type SellerAccess } from '../../auth/seller-access';
import type { Permission } from '../../http/permissions';

type InferOr<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : Record<string, never>;

export interface SessionContext<TOp extends SessionOperation> {
  requestId: string;
  /** The access token's holder; present on every endpoint that is not `public`. */
  principal: TOp['access'] extends 'public' ? SessionPrincipal | undefined : SessionPrincipal;
  /** The seller user and account, on endpoints that name a `permission` (already checked). */
  seller: TOp['permission'] extends Permission ? SellerAccess : undefined;
  params: InferOr<TOp['params']>;
  query: InferOr<TOp['query']>;
  body: InferOr<TOp['body']>;
  db: Db;
  client: ClientInfo;
  request: Request;
}

type RouteContext = { params: Promise<Record<string, string>> };

/**
 * Wraps a sign-in-API handler (the JWT family): request id, credential kind, access token and
 * audience, zod parsing, problem+json and logging. Token answers are never cached. The
 * handler's result is typed by the operation's response schema and documented answers.
 */
export function sessionRoute<TOp extends SessionOperation>(operation: TOp, handler: (context: SessionContext<TOp>) => Promise<HandlerResult<TOp>>) {
  return (request: Request, routeContext: RouteContext): Promise<Response> =>
    handleRequest(request, async (requestId, logFields) => {
      const principal = await authenticate(request, operation);
      if (principal) {
        logFields.audience = principal.audience;
        logFields.subjectId = principal.subjectId;
      }
      const seller = principal && operation.permission ? await authorizeSeller(getDb(), principal, operation.permission) : undefined;
      const rawBody = operation.method === 'GET' ? '' : await readBodyText(request);
      const { json: _json, ...input } = parseInput(operation, (await routeContext.params) ?? {}, new URL(request.url), rawBody);
      const run = (db: Db) => handler({ ...input, requestId, principal, seller, db, client: clientInfo(request.headers), request } as SessionContext<TOp>);
      const result = operation.transaction ? await getDb().transaction((tx) => run(tx)) : await run(getDb());
      const [status, body] = result instanceof ApiResponse ? [result.status, result.body] : [operation.successStatus ?? 200, result];
      return jsonResponse(status, JSON.stringify(body ?? null), { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' });
    });
}

/**
 * An API key is never accepted here (403 WRONG_TOKEN_TYPE, even on login); a protected endpoint
 * needs a valid access token of one of its audiences.
 */
async function authenticate(request: Request, operation: SessionOperation): Promise<SessionPrincipal | undefined> {
  const token = bearerToken(request);
  if (token && !looksLikeJwt(token)) {
    throw new ApiError('WRONG_TOKEN_TYPE', 'Sign-in APIs take a sign-in access token, not an API key.');
  }
  if (operation.access === 'public') return undefined;
  if (!token) throw new ApiError('UNAUTHENTICATED', 'Send an access token as "Authorization: Bearer <accessToken>".');
  return authenticateAccessToken(getDb(), { token, accepted: operation.access });
}
