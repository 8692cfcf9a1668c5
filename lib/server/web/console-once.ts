import { and, eq } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import type { Phases } from '../../db/phases';
import { idempotencyKeys } from '../../db/schema';
import { ApiError } from '../../errors';
import { claimIdempotencyKey, completeIdempotencyKey, holdIdempotencyLease, type Claim } from '../../http/idempotency';
import { log } from '../../log';

/** A console form's one-time key: rendered into the form, so a double submit sends the same one. */
export const CONSOLE_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

const WAIT_STEP_MS = 200;
const WAIT_LIMIT_MS = 15_000;

/**
 * Runs a console form's state change (a refund, a webhook retry) at most once per form key, with the
 * same idempotency table as the API (keys are namespaced `console:` so they never meet an API
 * key). A repeated submit while the first is running waits for it and gets its answer; a
 * repeated submit afterwards gets the stored answer. A failure rolls the work back and frees
 * the key, so the person can correct the form and submit again.
 */
export async function runConsoleOnce<T>(
  db: Database,
  input: { merchantId: string; key: string; action: string; body: unknown },
  work: (phases: Phases) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  if (!CONSOLE_KEY_PATTERN.test(input.key)) {
    throw new ApiError('VALIDATION_FAILED', 'This form has expired; reload the page and try again.');
  }
  const identity = { merchantId: input.merchantId, key: `console:${input.key}` };
  const fingerprint = { ...identity, method: 'CONSOLE', path: input.action, body: input.body };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    let claim: Claim;
    try {
      claim = await claimIdempotencyKey(db, fingerprint);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
        continue;
      }
      if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
        throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This form was already submitted with other values; reload the page to start again.');
      }
      throw error;
    }
    if (claim.kind === 'replay') return { result: JSON.parse(claim.body) as T, replayed: true };
    const lease = { ...identity, leaseId: claim.leaseId };
    const release = holdIdempotencyLease(lease, (error) => log.warn({ err: error }, 'could not renew an idempotency lease'));
    try {
      // The work's last transaction stores the answer with its outcome (lib/db/phases.ts).
      let answered = false;
      const result = await work({
        db,
        answer: async (tx, answer) => {
          await completeIdempotencyKey(tx, { ...lease, status: 200, body: JSON.stringify(answer) });
          answered = true;
        },
      });
      if (!answered) await completeIdempotencyKey(db, { ...lease, status: 200, body: JSON.stringify(result) });
      return { result, replayed: false };
    } catch (error) {
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.merchantId, identity.merchantId),
            eq(idempotencyKeys.key, identity.key),
            eq(idempotencyKeys.leaseId, claim.leaseId),
            eq(idempotencyKeys.state, 'in_progress'),
          ),
        );
      throw error;
    } finally {
      release();
    }
  }
}

/** Work that is one transaction, for `runConsoleOnce`: its answer commits in that transaction. */
export function inTransaction<T>(work: (tx: Db) => Promise<T>): (phases: Phases) => Promise<T> {
  return (phases) =>
    phases.db.transaction(async (tx) => {
      const result = await work(tx);
      await phases.answer(tx, result);
      return result;
    });
}
