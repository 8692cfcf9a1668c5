import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memberLoginTokens, refreshTokens, sellerUserTokens } from '../db/schema';
import { now } from '../clock';
import { REFRESH_REUSE_GRACE_MS } from './sessions';
import { purgeEndedRateLimitWindows } from './rate-limit';

/** How long an ended sign-in session (logout, reuse, suspension, removal) is kept before it is deleted. */
const ENDED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface SignInPurge {
  loginLinks: number;
  sellerTokens: number;
  successorPairs: number;
  refreshTokens: number;
  sessions: number;
  rateLimitBuckets: number;
}

/**
 * The sign-in tables' retention (docs/operations.md, "Retention"). Every token here is stored
 * hashed, so a row is no live secret; what it holds is history nobody needs once it cannot be
 * used, except the sealed pair a refresh token was rotated into, which is a live secret and is
 * dropped as soon as its grace window has passed:
 * - wallet sign-in links and seller tokens (email verification, password reset, two-factor
 *   challenges): deleted once expired;
 * - refresh tokens: the sealed successor pair cleared a minute after the rotation (the grace is
 *   5 seconds); a token deleted once expired, and every token of a session ended a day ago;
 * - sign-in sessions: deleted once they have no refresh token left (access tokens of a deleted
 *   session answer 401 exactly as those of an ended one);
 * - rate-limit counters: deleted once their window has ended.
 */
export async function purgeSignInRows(db: Db): Promise<SignInPurge> {
  const at = now();
  const loginLinks = await db.delete(memberLoginTokens).where(lt(memberLoginTokens.expiresAt, at)).returning({ id: memberLoginTokens.id });
  const sellerTokens = await db.delete(sellerUserTokens).where(lt(sellerUserTokens.expiresAt, at)).returning({ id: sellerUserTokens.id });
  const successorPairs = await db
    .update(refreshTokens)
    .set({ successorPair: null })
    .where(and(isNotNull(refreshTokens.successorPair), lt(refreshTokens.usedAt, new Date(at.getTime() - Math.max(REFRESH_REUSE_GRACE_MS, 60_000)))))
    .returning({ id: refreshTokens.id });
  const endedBefore = new Date(at.getTime() - ENDED_SESSION_RETENTION_MS);
  const tokens = await inBatches(
    db,
    (limit) => sql`
      delete from refresh_tokens where id in (
        select r.id from refresh_tokens r join auth_sessions s on s.id = r.session_id
        where r.expires_at < ${at} or s.revoked_at < ${endedBefore}
        limit ${limit})`,
  );
  const sessions = await inBatches(
    db,
    (limit) => sql`
      delete from auth_sessions where id in (
        select s.id from auth_sessions s
        where s.created_at < ${endedBefore} and not exists (select 1 from refresh_tokens r where r.session_id = s.id)
        limit ${limit})`,
  );
  return {
    loginLinks: loginLinks.length,
    sellerTokens: sellerTokens.length,
    successorPairs: successorPairs.length,
    refreshTokens: tokens,
    sessions,
    rateLimitBuckets: await purgeEndedRateLimitWindows(db),
  };
}

/** Runs a `delete … limit n` until it deletes nothing, so no statement holds its locks long. */
async function inBatches(db: Db, statement: (limit: number) => ReturnType<typeof sql>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.execute(statement(10_000));
    deleted += result.rowCount ?? 0;
    if (!result.rowCount) return deleted;
  }
}
