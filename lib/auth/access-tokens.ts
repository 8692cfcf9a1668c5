import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Audience } from '../db/schema';
import { now } from '../clock';
import { ApiError } from '../errors';
import { derivedKey } from '../secret-key';
import { ACCESS_TOKEN_TTL_SECONDS } from './lifetimes';

export { ACCESS_TOKEN_TTL_SECONDS };

const ISSUER = 'paybase';
const ALGORITHM = 'HS256';
const AUDIENCES: readonly Audience[] = ['admin', 'merchant', 'member'];

export interface AccessClaims {
  subjectId: string;
  audience: Audience;
  sessionId: string;
  expiresAt: Date;
}

const signingKey = () => derivedKey('jwt-signing');

/** A 15-minute JWT naming its holder (`sub`), audience (`aud`) and sign-in session (`sid`). */
export async function issueAccessToken(claims: { subjectId: string; audience: Audience; sessionId: string }): Promise<string> {
  const issuedAt = Math.floor(now().getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(claims.subjectId)
    .setAudience(claims.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(signingKey());
}

/**
 * Checks signature, issuer and expiry against the service clock, then the audience:
 * expired → 401 TOKEN_EXPIRED; not ours → 401 UNAUTHENTICATED; another audience → 403 WRONG_TOKEN_TYPE.
 * The session (revocation, suspension) is checked by the caller.
 */
export async function verifyAccessToken(token: string, accepted: readonly Audience[]): Promise<AccessClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, signingKey(), { issuer: ISSUER, algorithms: [ALGORITHM], currentDate: now() }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new ApiError('TOKEN_EXPIRED', 'The access token has expired: call the matching Refresh with your refresh token.');
    }
    throw new ApiError('UNAUTHENTICATED', 'The access token is not valid.');
  }
  const audience = typeof payload.aud === 'string' ? payload.aud : undefined;
  if (
    !audience ||
    !AUDIENCES.includes(audience as Audience) ||
    typeof payload.sub !== 'string' ||
    typeof payload.sid !== 'string' ||
    !hasIssuedLifetime(payload)
  ) {
    throw new ApiError('UNAUTHENTICATED', 'The access token is not valid.');
  }
  if (!accepted.includes(audience as Audience)) {
    throw new ApiError('WRONG_TOKEN_TYPE', `This API takes ${accepted.join(' or ')} sign-in tokens; this is a ${audience} token.`);
  }
  return { subjectId: payload.sub, audience: audience as Audience, sessionId: payload.sid, expiresAt: new Date((payload.exp ?? 0) * 1000) };
}

/**
 * Every access token this service issues lives exactly ACCESS_TOKEN_TTL_SECONDS (`exp` − `iat`):
 * one without either claim, or with any other lifetime, was not issued by this code (a key leak,
 * a token from a build with another lifetime) and is refused, whatever its audience.
 */
function hasIssuedLifetime(payload: JWTPayload): boolean {
  return typeof payload.exp === 'number' && typeof payload.iat === 'number' && payload.exp - payload.iat === ACCESS_TOKEN_TTL_SECONDS;
}
