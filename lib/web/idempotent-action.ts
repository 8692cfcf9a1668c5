import type { Db } from '../db/client';
import { getDb } from '../db/client';
import { ApiError, toProblem } from '../http/errors';
import { claimIdempotencyKey, completeIdempotencyKey } from '../http/idempotency';

/**
 * The outcome of a console action that runs at most once per form: `replayed` when the same
 * form was already submitted (a double click, a resubmitted POST) and its first answer is given back.
 */
export type IdempotentOutcome<T> = { replayed: false; result: T } | { replayed: true; result: T };

/** Keys a console form carries are namespaced, so they never collide with a backend's own keys. */
export const consoleIdempotencyKey = (formKey: string) => `console:${formKey}`;

const FORM_KEY = /^[A-Za-z0-9_-]{16,100}$/;

/**
 * Runs a console form's state change under the same Idempotency-Key store as the developer API
 * (`lib/http/idempotency.ts`): the key is claimed outside the transaction, the work and the
 * stored answer commit together, and a failure is stored as the answer too, exactly as the API
 * does. A repeat with the same key replays the first answer instead of running again.
 *
 * `path` is the API path of the same operation (e.g. `/api/WebhookDelivery/{id}/Retry`), so a
 * key can never be replayed for another operation or another resource.
 */
export async function runIdempotently<T>(
  input: { merchantId: string; formKey: string; path: string; body?: unknown },
  work: (tx: Db) => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  if (!FORM_KEY.test(input.formKey)) {
    throw new ApiError('VALIDATION_FAILED', 'This form has expired. Reload the page and try again.');
  }
  const db = getDb();
  const identity = { merchantId: input.merchantId, key: consoleIdempotencyKey(input.formKey) };
  const rawBody = input.body === undefined ? '' : JSON.stringify(input.body);
  const claim = await claimIdempotencyKey(db, { ...identity, method: 'POST', path: input.path, rawBody }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE') {
      throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'This form was just submitted and is still being handled. Wait a moment, then reload the page.');
    }
    if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This form was already sent with other values. Reload the page and try again.');
    }
    throw error;
  });
  if (claim.kind === 'replay') {
    const stored = JSON.parse(claim.body) as unknown;
    if (claim.status >= 400) {
      const problem = stored as { detail?: string };
      throw new ApiError('CONFLICT', problem.detail ?? 'This form was already submitted and failed.');
    }
    return { replayed: true, result: stored as T };
  }
  try {
    const result = await db.transaction(async (tx) => {
      const answer = await work(tx);
      await completeIdempotencyKey(tx, { ...identity, status: 200, body: JSON.stringify(answer) });
      return answer;
    });
    return { replayed: false, result };
  } catch (error) {
    // The work ran and failed (its transaction rolled back): that failure is the key's answer.
    if (error instanceof ApiError) {
      await completeIdempotencyKey(db, { ...identity, status: error.status, body: JSON.stringify(toProblem(error, 'console')) });
    }
    throw error;
  }
}
