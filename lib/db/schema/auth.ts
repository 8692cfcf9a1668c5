import { pgTable, text, integer, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz } from './columns';

export type Audience = 'admin' | 'merchant' | 'member';

/** Wallet members (consumers): identified by an email they proved by a magic link. */
export const members = pgTable(
  'members',
  {
    id: text().primaryKey(),
    email: text().notNull(),
    createdAt: createdAt(),
    lastSignInAt: timestampTz(),
  },
  (t) => [uniqueIndex('members_email_unique').on(sql`lower(${t.email})`)],
);

/**
 * One sign-in: the family of refresh tokens rotated from it. Access tokens carry its id, so
 * revoking the family (logout, refresh-token reuse, suspension) stops them too.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text().primaryKey(),
    audience: text().notNull().$type<Audience>(),
    subjectId: text().notNull(),
    /** For a seller session, the seller user signed in (`subjectId` is the seller account). */
    userId: text(),
    createdAt: createdAt(),
    revokedAt: timestampTz(),
    revokedReason: text().$type<'logout' | 'refresh_token_reuse' | 'suspended' | 'expired' | 'password_reset' | 'member_removed'>(),
  },
  (t) => [index('auth_sessions_subject_idx').on(t.audience, t.subjectId), index('auth_sessions_user_idx').on(t.userId)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; `usedAt` is set when rotated. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => authSessions.id),
    tokenHash: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestampTz().notNull(),
    usedAt: timestampTz(),
    /** The pair this token was rotated into, sealed (secret-box): repeated within the grace window (docs/auth.md). */
    successorPair: text(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_unique').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** Single-use wallet sign-in links (magic links), stored hashed. */
export const memberLoginTokens = pgTable(
  'member_login_tokens',
  {
    id: text().primaryKey(),
    email: text().notNull(),
    tokenHash: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestampTz().notNull(),
    usedAt: timestampTz(),
  },
  (t) => [uniqueIndex('member_login_tokens_hash_unique').on(t.tokenHash)],
);

/** Fixed-window counters for sign-in rate limits (shared by every server process). */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text().primaryKey(),
  windowStartedAt: timestampTz().notNull(),
  count: integer().notNull(),
});

/**
 * The developer API's rate limit (lib/http/rate-limit.ts), shared by every web process: per API
 * key, the times of its accepted requests still inside the window (at most API_RATE_LIMIT of them).
 */
export const apiRequestWindows = pgTable('api_request_windows', {
  apiKeyId: text().primaryKey(),
  acceptedAt: timestampTz().array().notNull(),
  lastAccepted: boolean().notNull(),
});
