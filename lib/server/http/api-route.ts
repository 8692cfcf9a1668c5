import type { z } from 'zod';
import { getDb, type Db } from '../../db/client';
import { watchCommits, watchingCommits, type CommitWatch, type Phases } from '../../db/phases';
import { log } from '../../log';
import { apiKeyUseIsStale, authenticateApiKey, missingScope, touchApiKey } from '../../auth/api-keys';
import { looksLikeJwt } from '../../auth/jwt-shape';
import { hasScope } from '../../http/scopes';
import { ApiError } from '../../errors';
import type { Operation } from '../../http/operation';
import type { HandlerResult } from '../../http/handler-result';
import { ApiResponse, jsonResponse } from '../../http/respond';
import { bearerToken, readBodyText } from '../../http/request';
import { errorResponse, handleRequest, parseInput } from './route-core';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  completeIdempotencyKeyWrite,
  holdIdempotencyLease,
  releaseIdempotencyKey,
  forgetIdempotencyKey,
  type Attempt,
} from '../../http/idempotency';
import { recordApiRequest, type SeenApiRequest } from '../../request-logs/record';
import { identifyActor } from '../../audit/request-context';
import { countApiRequest } from '../../http/rate-limit';
import { apiVersionOf, type ApiVersionName } from '../../http/api-versions';

export interface ApiContext<TOp extends Operation> {
  requestId: string;
  merchantId: string;
  apiKeyId: string;
  /** The version the answer is made in: the `Paybase-Version` header, else the key's pinned version. */
  apiVersion: ApiVersionName;
  params: InferOr<TOp['params']>;
  query: InferOr<TOp['query']>;
  body: InferOr<TOp['body']>;
  /** A transaction for POST/PUT/DELETE (the whole state change commits or none of it does). */
  db: Db;
  request: Request;
}

/** A handler that moves money opens its own transactions (lib/db/phases.ts) instead of getting one. */
export interface PhasedApiContext<TOp extends Operation> extends Omit<ApiContext<TOp>, 'db'> {
  phases: Phases;
  /** Names this request across retries with its Idempotency-Key (a crashed attempt is found again). */
  attempt: Attempt | undefined;
}

type InferOr<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : Record<string, never>;

type RouteContext = { params: Promise<Record<string, string>> };

const IDEMPOTENCY_KEY_MAX = 255;

/**
 * Wraps a developer-API handler with everything every endpoint shares: request id, API-key
 * authentication, scope, zod parsing, idempotency, one transaction, problem+json and logging.
 * The handler's result is typed by the operation's response schema and documented answers.
 */
export function apiRoute<TOp extends Operation>(operation: TOp, handler: (context: ApiContext<TOp>) => Promise<HandlerResult<TOp>>) {
  return route(operation, async (base, idempotency) => {
    const execute = (db: Db) => handler({ ...base, db } as ApiContext<TOp>);
    if (!idempotency) return executeOnce(operation, base.requestId, execute);
    return executeIdempotently(operation, idempotency, 'one-transaction', async ({ answer }) => {
      const db = getDb();
      return db.transaction(async (tx) => {
        const result = await execute(tx);
        await answer(tx, result);
        return result;
      });
    });
  });
}

/**
 * The same for a handler that calls the payment processor: it gets the pool and opens its own
 * transactions in phases (docs/payments.md); its last transaction stores the idempotency answer
 * through `phases.answer`, so the outcome and the answer commit together. `toAnswer` shapes
 * the handler's result (the same function shapes what `phases.answer` stores); without it the
 * handler's result is the answer. Either is typed like `apiRoute`'s handler.
 */
export function phasedApiRoute<TOp extends Operation>(
  operation: TOp,
  handler: (context: PhasedApiContext<TOp>) => Promise<HandlerResult<TOp>>,
): ReturnType<typeof route>;
export function phasedApiRoute<TOp extends Operation, TResult>(
  operation: TOp,
  handler: (context: PhasedApiContext<TOp>) => Promise<TResult>,
  toAnswer: (result: TResult, requestId: string) => HandlerResult<TOp>,
): ReturnType<typeof route>;
export function phasedApiRoute<TOp extends Operation, TResult>(
  operation: TOp,
  handler: (context: PhasedApiContext<TOp>) => Promise<TResult>,
  toAnswer: (result: TResult, requestId: string) => unknown = (result) => result,
) {
  return route(operation, async (base, idempotency) => {
    const run = (hooks: AnswerHooks, attempt?: Attempt) =>
      handler({
        ...base,
        phases: {
          db: watchingCommits(getDb()),
          answer: (tx, result) => hooks.answer(tx, toAnswer(result as TResult, base.requestId)),
          answerWrite: (tx, result, onlyIf) => hooks.answerWrite?.(tx, toAnswer(result as TResult, base.requestId), onlyIf),
        },
        attempt,
      } as PhasedApiContext<TOp>);
    if (!idempotency) {
      const result = await run({ answer: async () => {} });
      const [status, body] = shape(operation, toAnswer(result, base.requestId));
      return jsonResponse(status, body, { 'X-Request-Id': base.requestId });
    }
    return executeIdempotently(operation, idempotency, 'phases', async (hooks, attempt) => toAnswer(await run(hooks, attempt), base.requestId));
  });
}

type BaseContext<TOp extends Operation> = Omit<ApiContext<TOp>, 'db'>;
/** How a handler's last transaction stores the idempotency answer (lib/db/phases.ts). */
type AnswerHooks = Pick<Phases, 'answer' | 'answerWrite'>;
interface IdempotentRequest {
  merchantId: string;
  key: string;
  url: URL;
  /** The parsed JSON body, fingerprinted as canonical JSON. */
  body: unknown;
  requestId: string;
}

function route<TOp extends Operation>(operation: TOp, run: (base: BaseContext<TOp>, idempotency: IdempotentRequest | undefined) => Promise<Response>) {
  return async (request: Request, routeContext: RouteContext): Promise<Response> => {
    const startedAt = performance.now();
    const seen: SeenApiRequest = {};
    let rateLimitHeaders: Record<string, string> = {};
    const answer = await handleRequest(request, async (requestId, logFields, url) => {
      seen.path = url.pathname;
      const principal = await authenticate(request);
      logFields.merchantId = seen.merchantId = principal.merchantId;
      seen.apiKeyId = principal.apiKeyId;
      const apiVersion = apiVersionOf(request.headers, principal.apiVersion);
      logFields.apiVersion = apiVersion;
      const quota = await countApiRequest(getDb(), principal.apiKeyId);
      rateLimitHeaders = quota.headers;
      if (quota.refusal) throw quota.refusal;
      if (!hasScope(principal.scopes, operation.scope)) throw missingScope(principal, operation.scope);
      const rawBody = operation.method === 'GET' ? '' : await readBodyText(request);
      seen.rawBody = rawBody;
      const { json, ...input } = parseInput(operation, (await routeContext.params) ?? {}, url, rawBody);
      const idempotencyKey = readIdempotencyKey(operation, request);
      const base = { ...input, requestId, merchantId: principal.merchantId, apiKeyId: principal.apiKeyId, apiVersion, request } as BaseContext<TOp>;
      const idempotency = idempotencyKey ? { merchantId: principal.merchantId, key: idempotencyKey, url, body: json, requestId } : undefined;
      const response = await run(base, idempotency);
      if (apiKeyUseIsStale(principal)) {
        void touchApiKey(getDb(), principal.apiKeyId).catch((error) => log.warn({ err: error, requestId }, 'could not record API key use'));
      }
      return response;
    });
    // Every answer to an authenticated request tells its key's quota (docs/api.md, "Rate limits").
    for (const [name, value] of Object.entries(rateLimitHeaders)) answer.headers.set(name, value);
    recordApiRequest(request, answer, seen, performance.now() - startedAt);
    return answer;
  };
}

async function authenticate(request: Request) {
  const token = bearerToken(request);
  if (!token) throw new ApiError('UNAUTHENTICATED', 'Send an API key as "Authorization: Bearer <key>".');
  if (looksLikeJwt(token)) {
    throw new ApiError('WRONG_TOKEN_TYPE', 'The developer API takes an API key, not a sign-in access token.');
  }
  const principal = await authenticateApiKey(getDb(), token);
  if (!principal) throw new ApiError('UNAUTHENTICATED', 'The API key is unknown or has been revoked.');
  identifyActor({ kind: 'api_key', id: principal.apiKeyId });
  return principal;
}

function readIdempotencyKey(operation: Operation, request: Request): string | undefined {
  if (!operation.idempotency || operation.method !== 'POST') return undefined;
  const key = request.headers.get('idempotency-key');
  if (key === null || key.trim() === '') {
    if (operation.idempotency === 'required') {
      throw new ApiError('IDEMPOTENCY_KEY_REQUIRED', 'This endpoint moves money or changes state once: send an Idempotency-Key header.');
    }
    return undefined;
  }
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError('VALIDATION_FAILED', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters.`, {
      errors: [{ path: 'Idempotency-Key', message: `1 to ${IDEMPOTENCY_KEY_MAX} characters.` }],
    });
  }
  return key;
}

async function executeOnce(operation: Operation, requestId: string, execute: (db: Db) => Promise<unknown>): Promise<Response> {
  const result = operation.method === 'GET' ? await execute(getDb()) : await getDb().transaction((tx) => execute(tx));
  const [status, body] = shape(operation, result);
  return jsonResponse(status, body, { 'X-Request-Id': requestId });
}

/**
 * Runs a request under its Idempotency-Key: the claim commits first (concurrent duplicates see
 * it at once), then `execute` runs and calls `answer` in its last transaction with the answer
 * to store. A failure is the request's answer too, replayed like a success, except two: a 5xx
 * after a transaction of a phased handler committed (phase 1 of a money move: money may have
 * moved, and recovery, a person or a retry settles it), or in a takeover of one, releases the
 * key, so a retry takes the execution over and answers the outcome; a refusal of the input (`VALIDATION_FAILED`) before anything
 * changed forgets the key, so the corrected request may use it (docs/api.md, "Idempotency").
 */
async function executeIdempotently(
  operation: Operation,
  request: IdempotentRequest,
  transactions: 'one-transaction' | 'phases',
  execute: (hooks: AnswerHooks, attempt: Attempt) => Promise<unknown>,
): Promise<Response> {
  const db = getDb();
  const claim = await claimIdempotencyKey(db, {
    merchantId: request.merchantId,
    key: request.key,
    method: operation.method,
    path: request.url.pathname,
    body: request.body,
  });
  if (claim.kind === 'replay') {
    return jsonResponse(claim.status, claim.body, { 'X-Request-Id': request.requestId, 'Idempotent-Replayed': 'true' });
  }
  const lease = { merchantId: request.merchantId, key: request.key, leaseId: claim.leaseId };
  const stopRenewing = holdIdempotencyLease(lease, (error) => log.warn({ err: error, requestId: request.requestId }, 'could not renew an idempotency lease'));
  const watch: CommitWatch = { committed: false };
  let stored: [number, string] | undefined;
  try {
    const hooks: AnswerHooks = {
      answer: async (tx, result) => {
        stored = shape(operation, result);
        await completeIdempotencyKey(tx, { ...lease, status: stored[0], body: stored[1] });
      },
      answerWrite: (tx, result, onlyIf) => {
        stored = shape(operation, result);
        return completeIdempotencyKeyWrite(tx, { ...lease, status: stored[0], body: stored[1] }, onlyIf);
      },
    };
    const result = await watchCommits(watch, () => execute(hooks, claim.attempt));
    const [status, body] = stored ?? shape(operation, result);
    if (!stored) await completeIdempotencyKey(db, { ...lease, status, body });
    return jsonResponse(status, body, { 'X-Request-Id': request.requestId });
  } catch (error) {
    const failure = errorResponse(error, request.requestId);
    if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE') return failure; // the lease was lost: the new holder answers
    // A takeover of a phased handler: the run it took over may have committed phase 1.
    const phaseOneMayHaveCommitted = watch.committed || (transactions === 'phases' && !claim.attempt.isNew);
    if (failure.status >= 500 && phaseOneMayHaveCommitted) {
      // Unreleased, the key would still pass to a retry once its lease lapsed.
      await releaseIdempotencyKey(lease).catch((lost: unknown) =>
        log.warn({ err: lost, requestId: request.requestId }, 'could not release an idempotency key'),
      );
      return failure;
    }
    if (!watch.committed && refusedBeforeAnyChange(error, transactions, claim.attempt)) {
      await forgetIdempotencyKey(db, lease);
      return failure;
    }
    await completeIdempotencyKey(db, { ...lease, status: failure.status, body: await failure.clone().text() }).catch((lost: unknown) => {
      if (!(lost instanceof ApiError)) throw lost; // a lost lease leaves the answer to the new holder
    });
    return failure;
  } finally {
    stopRenewing();
  }
}

/**
 * Whether a handler's failure refused the request's input before anything was changed, so the
 * key stays free as for input the wrapper refuses: a `VALIDATION_FAILED` is raised while the
 * input is checked, in the one transaction (rolled back with it) or in a money move's phase 1
 * (rolled back too; nothing is charged before it commits). A takeover's run is not new: the
 * run it took over may have committed phase 1, so its answer is stored like any outcome.
 * Declines (402), conflicts (409) and the rest are outcomes and stay stored.
 */
function refusedBeforeAnyChange(error: unknown, transactions: 'one-transaction' | 'phases', attempt: Attempt): boolean {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED') return false;
  return transactions === 'one-transaction' || attempt.isNew;
}

function shape(operation: Operation, result: unknown): [number, string] {
  if (result instanceof ApiResponse) return [result.status, JSON.stringify(result.body)];
  return [operation.successStatus ?? 200, JSON.stringify(result)];
}

export { errorResponse };
