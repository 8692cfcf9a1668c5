import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, refreshTokens, type Audience } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError } from '../errors';
import { randomToken, sha256Hex } from '../secrets';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken, verifyAccessToken } from './access-tokens';
import { isSubjectActive } from './subjects';
import { REFRESH_TOKEN_TTL_SECONDS } from './lifetimes';
import { decryptSecret, encryptSecret } from '../secret-box';
import { identifyActor } from '../audit/request-context';

export { REFRESH_TOKEN_TTL_SECONDS };

const REFRESH_TOKEN_PREFIX = 'rt_';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  tokenType: 'Bearer';
}

export interface SessionPrincipal {
  audience: Audience;
  /** The admin, the seller account (merchant id, the tenant) or the wallet member. */
  subjectId: string;
  sessionId: string;
  /** For a seller session: the seller user signed in to the account (resolved from the session). */
  userId?: string;
}

type RevokeReason = NonNullable<(typeof authSessions.$inferSelect)['revokedReason']>;

/** Starts a sign-in session (a new refresh-token family) and returns its first token pair. */
export async function startSession(tx: Db, input: { audience: Audience; subjectId: string; userId?: string }): Promise<TokenPair> {
  const sessionId = newId('session');
  await tx.insert(authSessions).values({ id: sessionId, audience: input.audience, subjectId: input.subjectId, userId: input.userId ?? null, createdAt: now() });
  return issuePair(tx, { audience: input.audience, subjectId: input.subjectId, sessionId });
}

async function issuePair(tx: Db, principal: Omit<SessionPrincipal, 'userId'>): Promise<TokenPair> {
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
  const at = now();
  await tx.insert(refreshTokens).values({
    id: newId('refreshToken'),
    sessionId: principal.sessionId,
    tokenHash: sha256Hex(refreshToken),
    createdAt: at,
    expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  const accessToken = await issueAccessToken(principal);
  return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS, tokenType: 'Bearer' };
}

const invalidRefreshToken = (detail = 'The refresh token is not valid: sign in again.') => new ApiError('INVALID_REFRESH_TOKEN', detail);

/**
 * How long after a rotation the rotated token, presented again, answers the same new pair
 * (two tabs refreshing at once, or a client retrying after a lost answer) instead of counting
 * as reuse — as long as that new pair has not been used itself (docs/auth.md).
 */
export const REFRESH_REUSE_GRACE_MS = 5_000;

/**
 * Rotates a refresh token: the presented one is locked and marked used, so of two concurrent
 * uses exactly one rotates. Presenting a used token again within the grace window answers the
 * pair it was rotated into; any other reuse revokes the whole family — whoever holds a copy
 * (thief or owner) must sign in again.
 */
export async function rotateRefreshToken(db: Db, input: { refreshToken: string; audience: Audience }): Promise<TokenPair> {
  const hash = sha256Hex(input.refreshToken);
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: refreshTokens, session: authSessions })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, hash))
      .for('update', { of: refreshTokens });
    if (!row) return { error: invalidRefreshToken() };
    const { token, session } = row;
    if (session.audience !== input.audience) {
      return { error: new ApiError('WRONG_TOKEN_TYPE', `This is a ${session.audience} refresh token; call the ${session.audience} Refresh.`) };
    }
    if (session.revokedAt) return { error: invalidRefreshToken('This sign-in has ended: sign in again.') };
    if (token.usedAt) {
      const successor = await successorWithinGrace(tx, token);
      if (successor) return { pair: successor };
      await revokeFamily(tx, session.id, 'refresh_token_reuse');
      return { error: invalidRefreshToken('This refresh token was already used; the sign-in has been ended for safety. Sign in again.') };
    }
    const at = now();
    if (token.expiresAt <= at) return { error: invalidRefreshToken('The refresh token has expired: sign in again.') };
    if (!(await isSubjectActive(tx, session.audience, session.subjectId, session.userId))) {
      await revokeFamily(tx, session.id, 'suspended');
      return { error: new ApiError('UNAUTHENTICATED', 'This account cannot sign in.') };
    }
    const pair = await issuePair(tx, { audience: session.audience, subjectId: session.subjectId, sessionId: session.id });
    await tx
      .update(refreshTokens)
      .set({ usedAt: at, successorPair: encryptSecret(JSON.stringify(pair), token.id) })
      .where(eq(refreshTokens.id, token.id));
    return { pair };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.pair;
}

/** The pair a used token was rotated into, if it was rotated moments ago and that pair is still unused. */
async function successorWithinGrace(tx: Db, token: typeof refreshTokens.$inferSelect): Promise<TokenPair | undefined> {
  if (!token.usedAt || !token.successorPair || now().getTime() - token.usedAt.getTime() > REFRESH_REUSE_GRACE_MS) return undefined;
  const pair = JSON.parse(decryptSecret(token.successorPair, token.id)) as TokenPair;
  const [successor] = await tx
    .select({ usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256Hex(pair.refreshToken)));
  return successor && !successor.usedAt ? pair : undefined;
}

async function revokeFamily(tx: Db, sessionId: string, reason: RevokeReason): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: now(), revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}

/** Ends a sign-in session; its refresh tokens and access tokens stop working at once. */
export async function endSession(db: Db, input: { sessionId: string }): Promise<void> {
  await revokeFamily(db, input.sessionId, 'logout');
}

/**
 * Logout with a refresh token (the access token may already have expired). Unknown or used
 * tokens change nothing; a token of another audience is refused.
 */
export async function endSessionByRefreshToken(db: Db, input: { refreshToken: string; audience: Audience }): Promise<void> {
  const [row] = await db
    .select({ sessionId: authSessions.id, audience: authSessions.audience })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, sha256Hex(input.refreshToken)));
  if (!row) return;
  if (row.audience !== input.audience) {
    throw new ApiError('WRONG_TOKEN_TYPE', `This is a ${row.audience} refresh token; call the ${row.audience} Logout.`);
  }
  await revokeFamily(db, row.sessionId, 'logout');
}

/** Revokes every open session of one subject (suspension). */
export async function endSubjectSessions(tx: Db, input: { audience: Audience; subjectId: string; reason: RevokeReason }): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: now(), revokedReason: input.reason })
    .where(and(eq(authSessions.audience, input.audience), eq(authSessions.subjectId, input.subjectId), isNull(authSessions.revokedAt)));
}

/** Revokes every open session of one seller user (password reset, removal from the team). */
export async function endUserSessions(tx: Db, input: { userId: string; reason: RevokeReason }): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: now(), revokedReason: input.reason })
    .where(and(eq(authSessions.userId, input.userId), isNull(authSessions.revokedAt)));
}

/**
 * Resolves an access token to its holder: a valid signature and expiry are not enough — the
 * session must still be open and its holder still allowed, so logout and suspension apply at once.
 */
export async function authenticateAccessToken(db: Db, input: { token: string; accepted: readonly Audience[] }): Promise<SessionPrincipal> {
  const claims = await verifyAccessToken(input.token, input.accepted);
  const [session] = await db
    .select({ revokedAt: authSessions.revokedAt, subjectId: authSessions.subjectId, audience: authSessions.audience, userId: authSessions.userId })
    .from(authSessions)
    .where(eq(authSessions.id, claims.sessionId));
  if (!session || session.revokedAt || session.subjectId !== claims.subjectId || session.audience !== claims.audience) {
    throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  }
  if (!(await isSubjectActive(db, claims.audience, claims.subjectId, session.userId))) {
    throw new ApiError('UNAUTHENTICATED', 'This account is not active.');
  }
  if (claims.audience === 'admin') identifyActor({ kind: 'admin', id: claims.subjectId });
  if (claims.audience === 'merchant' && session.userId) identifyActor({ kind: 'seller_user', id: session.userId });
  return { audience: claims.audience, subjectId: claims.subjectId, sessionId: claims.sessionId, ...(session.userId ? { userId: session.userId } : {}) };
}

/**
 * Logout: ends the session named by the refresh token in the body, or else by the access token.
 * Later calls with any token of that session get 401.
 */
export async function signOut(db: Db, input: { audience: Audience; refreshToken?: string; accessToken?: string }): Promise<void> {
  if (input.refreshToken) return endSessionByRefreshToken(db, { refreshToken: input.refreshToken, audience: input.audience });
  if (!input.accessToken) throw new ApiError('UNAUTHENTICATED', 'Send the refresh token in the body or the access token as Bearer.');
  const principal = await authenticateAccessToken(db, { token: input.accessToken, accepted: [input.audience] });
  await endSession(db, { sessionId: principal.sessionId });
}
