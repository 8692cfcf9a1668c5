import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { now } from '../clock';
import { sha256Hex } from '../auth/secrets';
import { ApiError } from './errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-progress key whose request has not finished in this long is treated as abandoned
 * (its process died; its transaction rolled back) and may be executed again.
 */
export const IDEMPOTENCY_LOCK_TIMEOUT_MS = 2 * 60 * 1000;

export interface RequestFingerprint {
  merchantId: string;
  key: string;
  method: string;
  path: string;
  rawBody: string;
}

/**
 * `attempt.key` names this key's lifetime: the same across a takeover of an abandoned execution,
 * new once the key expired; `attempt.isNew` is false for a takeover (an earlier run may have
 * left work behind to find and finish).
 */
export interface Attempt {
  key: string;
  isNew: boolean;
}
export type Claim = { kind: 'execute'; attempt: Attempt } | { kind: 'replay'; status: number; body: string };

/**
 * Claims an Idempotency-Key for a request that is about to execute. The claim is committed on
 * its own (outside the request's transaction) so concurrent duplicates see it at once.
 */
export async function claimIdempotencyKey(db: Db, request: RequestFingerprint): Promise<Claim> {
  const bodyHash = sha256Hex(request.rawBody);
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        merchantId: request.merchantId,
        key: request.key,
        method: request.method,
        path: request.path,
        bodyHash,
        state: 'in_progress',
        lockedAt: at,
        createdAt: at,
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { kind: 'execute', attempt: { key: attemptKeyOf(request.key, at), isNew: true } };

    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.merchantId, request.merchantId), eq(idempotencyKeys.key, request.key)));
    if (!existing) continue; // removed between our insert and select: try again
    if (existing.expiresAt <= at) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.merchantId, request.merchantId), eq(idempotencyKeys.key, request.key), lte(idempotencyKeys.expiresAt, at)));
      continue;
    }
    if (existing.method !== request.method || existing.path !== request.path || existing.bodyHash !== bodyHash) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
      );
    }
    if (existing.state === 'completed') {
      return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody! };
    }
    if (existing.lockedAt.getTime() > at.getTime() - IDEMPOTENCY_LOCK_TIMEOUT_MS) {
      throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later.', {
        headers: { 'Retry-After': '1' },
      });
    }
    const takenOver = await db
      .update(idempotencyKeys)
      .set({ lockedAt: at })
      .where(
        and(
          eq(idempotencyKeys.merchantId, request.merchantId),
          eq(idempotencyKeys.key, request.key),
          eq(idempotencyKeys.state, 'in_progress'),
          eq(idempotencyKeys.lockedAt, existing.lockedAt),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (takenOver.length) return { kind: 'execute', attempt: { key: attemptKeyOf(request.key, existing.createdAt), isNew: false } };
  }
  throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later.');
}

function attemptKeyOf(key: string, createdAt: Date) {
  return `api:${createdAt.getTime()}:${key}`;
}

/** Stores the final answer; called inside the request's transaction so both commit together. */
export async function completeIdempotencyKey(
  db: Db,
  input: { merchantId: string; key: string; status: number; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'completed', responseStatus: input.status, responseBody: input.body })
    .where(and(eq(idempotencyKeys.merchantId, input.merchantId), eq(idempotencyKeys.key, input.key)));
}

/** Deletes keys past their 24 h life; run periodically by the worker. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const result = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now())).returning({ key: idempotencyKeys.key });
  return result.length;
}
