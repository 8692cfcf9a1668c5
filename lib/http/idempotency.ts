import crypto from 'node:crypto';
import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { getLeaseDb, type Db } from '../db/client';
import type { AnswerWrite } from '../db/phases';
import { idempotencyKeys } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { sha256Hex } from '../secrets';
import { canonicalJson } from '../canonical-json';
import { ApiError } from '../errors';
import { idempotencyKeyStateMachine } from './idempotency-key-states';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-progress key is held by a lease its request renews while it runs, three times per lease
 * period. A lease not renewed for IDEMPOTENCY_LEASE_MS (default 5 s) belongs to a request whose
 * process died (its transaction rolled back): the key may be executed again (docs/api.md,
 * "Idempotency").
 */
const leaseMs = () => config.http.idempotencyLeaseMs;
const leaseRenewMs = () => Math.floor(leaseMs() * 0.3);

export interface RequestFingerprint {
  merchantId: string;
  key: string;
  method: string;
  path: string;
  /** The parsed JSON body; compared as canonical JSON, so key order and whitespace do not matter. */
  body: unknown;
}

/**
 * `attempt.key` names this key's lifetime: the same across a takeover of an abandoned execution,
 * new once the key expired; `attempt.isNew` is false for a takeover (an earlier run may have
 * left work behind to find and finish). `lease` is this execution's hold on the key (`lockAttempt`
 * checks it); a plan pins `key`, never the lease.
 */
export interface Attempt {
  key: string;
  isNew: boolean;
  lease: AttemptLease;
}
export interface AttemptLease {
  idempotencyKey: string;
  leaseId: string;
}
/** `leaseId` names this execution's hold on the key: only its holder renews it or stores the answer. */
export type Claim = { kind: 'execute'; attempt: Attempt; leaseId: string } | { kind: 'replay'; status: number; body: string };

/**
 * Claims an Idempotency-Key for a request that is about to execute. The claim is committed on
 * its own (outside the request's transaction) so concurrent duplicates see it at once.
 */
export async function claimIdempotencyKey(db: Db, request: RequestFingerprint): Promise<Claim> {
  const bodyHash = sha256Hex(canonicalJson(request.body));
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    const leaseId = crypto.randomUUID();
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        merchantId: request.merchantId,
        key: request.key,
        method: request.method,
        path: request.path,
        bodyHash,
        state: idempotencyKeyStateMachine.start('in_progress'),
        leaseId,
        lockedAt: at,
        createdAt: at,
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    const lease = { idempotencyKey: request.key, leaseId };
    if (inserted.length) return { kind: 'execute', attempt: { key: attemptKeyOf(request.key, at), isNew: true, lease }, leaseId };

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
    if (existing.lockedAt.getTime() > at.getTime() - leaseMs()) {
      throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later.', { retryAfterSeconds: 1 });
    }
    const takenOver = await db
      .update(idempotencyKeys)
      .set({ lockedAt: at, leaseId })
      .where(
        and(
          eq(idempotencyKeys.merchantId, request.merchantId),
          eq(idempotencyKeys.key, request.key),
          eq(idempotencyKeys.state, 'in_progress'),
          eq(idempotencyKeys.lockedAt, existing.lockedAt),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (takenOver.length) return { kind: 'execute', attempt: { key: attemptKeyOf(request.key, existing.createdAt), isNew: false, lease }, leaseId };
  }
  throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later.');
}

function attemptKeyOf(key: string, createdAt: Date) {
  return `api:${createdAt.getTime()}:${key}`;
}

/**
 * Stores the final answer; called inside the request's last transaction so both commit together.
 * Only the lease holder may: an execution whose lease lapsed and was taken over rolls back.
 */
export async function completeIdempotencyKey(db: Db, input: StoredAnswer): Promise<void> {
  const write = completeIdempotencyKeyWrite(db, input);
  write.confirm((await db.execute(write.statement)).rows.length);
}

type StoredAnswer = { merchantId: string; key: string; leaseId: string; status: number; body: string };

/** The same as a write to run inside the caller's own statement (lib/db/phases.ts `answerWrite`). */
export function completeIdempotencyKeyWrite(db: Db, input: StoredAnswer, onlyIf?: SQL): AnswerWrite {
  return {
    statement: db
      .update(idempotencyKeys)
      .set({ state: 'completed', responseStatus: input.status, responseBody: input.body })
      .where(and(...heldBy(input), onlyIf))
      .returning({ key: idempotencyKeys.key })
      .getSQL(),
    confirm(storedRows) {
      if (!storedRows) throw tookOver();
    },
  };
}

function tookOver() {
  return new ApiError('IDEMPOTENCY_KEY_IN_USE', 'Another request with this Idempotency-Key took over this one; retry to get its answer.', {
    retryAfterSeconds: 1,
  });
}

/**
Gives the key up without an answer, so the corrected request may use it (a request refused for
 * its input stores nothing: docs/api.md, "Idempotency"). Only the lease holder's in-progress row
 * is removed; a key taken over by another execution stays with it.
 */
export async function forgetIdempotencyKey(db: Db, lease: { merchantId: string; key: string; leaseId: string }): Promise<void> {
  await db.delete(idempotencyKeys).where(and(...heldBy(lease)));
}

/**
 * Renews the lease (three times per lease period) until the returned function is called, on
 * connections of their own (`getLeaseDb`): a request waiting for a connection of the main pool
 * (all held by other requests) keeps its key. A failed renewal is only logged by `onError`: the
 * answer is guarded by the lease check above.
 */
export function holdIdempotencyLease(lease: { merchantId: string; key: string; leaseId: string }, onError: (error: unknown) => void): () => void {
  const db = getLeaseDb();
  const timer = setInterval(() => {
    db.update(idempotencyKeys)
      .set({ lockedAt: now() })
      .where(and(...heldBy(lease)))
      .catch(onError);
  }, leaseRenewMs());
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Gives the key up without an answer: the next request with it takes the execution over at once
 * (as after a lapsed lease, `isNew: false`). For a request that failed after committing part of
 * its work (a money move's phase 1): its failure is not the outcome, which the takeover finds.
 */
export async function releaseIdempotencyKey(lease: { merchantId: string; key: string; leaseId: string }): Promise<void> {
  await getLeaseDb()
    .update(idempotencyKeys)
    .set({ lockedAt: new Date(0), leaseId: null })
    .where(and(...heldBy(lease)));
}

/**
 * Phase 1 of a money move takes its attempt's lock (for the rest of the transaction) before it
 * looks for or prepares anything, in every execution: a first one, a takeover, twins of a hosted
 * page's attempt. They take turns, so the later one finds what the earlier one committed. An
 * execution under an Idempotency-Key must then still hold its lease: one replaced by a takeover
 * stops here (409 `IDEMPOTENCY_KEY_IN_USE`, the takeover finishes the attempt), so a first
 * execution (`isNew`) that passes has nothing earlier to look for.
 */
export async function lockAttempt(tx: Db, merchantId: string, attempt: { key: string; lease?: AttemptLease }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`attempt:${merchantId}:${attempt.key}`}, 0))`);
  if (!attempt.lease) return;
  // A statement of its own: it sees a takeover committed while this one waited for the lock.
  const [held] = await tx
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(and(...heldBy({ merchantId, key: attempt.lease.idempotencyKey, leaseId: attempt.lease.leaseId })));
  if (!held) throw tookOver();
}

/** The lease holder's row, while it may still become `completed` (the guard of that status write). */
function heldBy(lease: { merchantId: string; key: string; leaseId: string }) {
  return [
    eq(idempotencyKeys.merchantId, lease.merchantId),
    eq(idempotencyKeys.key, lease.key),
    eq(idempotencyKeys.leaseId, lease.leaseId),
    inArray(idempotencyKeys.state, idempotencyKeyStateMachine.sourcesOf('completed')),
  ];
}

/** Deletes keys past their 24 h life; run periodically by the worker. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const result = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now())).returning({ key: idempotencyKeys.key });
  return result.length;
}
