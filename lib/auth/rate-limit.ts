import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitBuckets } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { ApiError } from '../http/errors';
import { sha256Hex } from '../secrets';

export interface RateLimit {
  /** Names the bucket family, e.g. `login-account`. */
  name: string;
  max: number;
  windowSeconds: number;
}

/** Sign-in limits (docs/auth.md). Windows are fixed: the count resets when the window ends. */
export const SIGN_IN_LIMITS = {
  /** Failed password sign-ins for one account (admin name or seller email). */
  failuresPerAccount: { name: 'login-account', max: config.auth.signInMaxFailuresPerAccount, windowSeconds: 15 * 60 },
  /** Failed sign-ins of any kind from one client address. */
  failuresPerIp: { name: 'login-ip', max: config.auth.signInMaxFailuresPerIp, windowSeconds: 15 * 60 },
  /** Wallet sign-in links mailed to one address. */
  linksPerEmail: { name: 'member-link-email', max: 5, windowSeconds: 15 * 60 },
  /** Password-reset links asked for one email address (known or not). */
  resetsPerEmail: { name: 'reset-email', max: config.auth.passwordResetMaxPerEmail, windowSeconds: 60 * 60 },
  /** Team invitations sent by one seller account. */
  invitationsPerAccount: { name: 'invitations-account', max: 20, windowSeconds: 60 * 60 },
  /** Email-verification links re-sent for one seller user. */
  verificationResendsPerUser: { name: 'verify-resend-user', max: 3, windowSeconds: 60 * 60 },
  /** Wallet sign-in links, seller sign-ups and password-reset requests from one client address. */
  requestsPerIp: { name: 'signup-ip', max: config.auth.signUpMaxPerIp, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

// Identifiers are hashed so the table holds no email addresses or IPs in clear.
const bucketKey = (limit: RateLimit, subject: string) => `${limit.name}:${sha256Hex(subject.toLowerCase())}`;

/** Throws 429 RATE_LIMITED with Retry-After when the bucket is full; counts nothing. */
export async function assertUnderLimit(db: Db, limit: RateLimit, subject: string): Promise<void> {
  const [bucket] = await db
    .select()
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.key, bucketKey(limit, subject)));
  if (!bucket) return;
  const retryAfter = secondsLeft(bucket.windowStartedAt, limit);
  if (retryAfter > 0 && bucket.count >= limit.max) throw rateLimited(retryAfter);
}

/** Adds one to the bucket, starting a new window when the last one ended. */
export async function countAttempt(db: Db, limit: RateLimit, subject: string): Promise<{ count: number; windowStartedAt: Date }> {
  const at = now();
  const windowStart = new Date(at.getTime() - limit.windowSeconds * 1000);
  const [row] = await db
    .insert(rateLimitBuckets)
    .values({ key: bucketKey(limit, subject), windowStartedAt: at, count: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        count: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then 1 else ${rateLimitBuckets.count} + 1 end`,
        windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then ${at} else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning();
  return { count: row!.count, windowStartedAt: row!.windowStartedAt };
}

/** Counts one attempt and refuses it when it goes over the limit. */
export async function consumeLimit(db: Db, limit: RateLimit, subject: string): Promise<void> {
  const bucket = await countAttempt(db, limit, subject);
  if (bucket.count > limit.max) throw rateLimited(secondsLeft(bucket.windowStartedAt, limit));
}

export async function clearLimit(db: Db, limit: RateLimit, subject: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, bucketKey(limit, subject)));
}

function secondsLeft(windowStartedAt: Date, limit: RateLimit): number {
  return Math.ceil((windowStartedAt.getTime() + limit.windowSeconds * 1000 - now().getTime()) / 1000);
}

function rateLimited(retryAfter: number): ApiError {
  return new ApiError('RATE_LIMITED', `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, {
    headers: { 'Retry-After': String(retryAfter) },
    extra: { retryAfter },
  });
}

/** Deletes the counters whose window has ended (each limit's own window), so the table holds only live counts. */
export async function purgeEndedRateLimitWindows(db: Db): Promise<number> {
  let deleted = 0;
  for (const limit of Object.values(SIGN_IN_LIMITS)) {
    const endedBefore = new Date(now().getTime() - limit.windowSeconds * 1000);
    const rows = await db
      .delete(rateLimitBuckets)
      .where(and(sql`starts_with(${rateLimitBuckets.key}, ${`${limit.name}:`})`, lt(rateLimitBuckets.windowStartedAt, endedBefore)))
      .returning({ key: rateLimitBuckets.key });
    deleted += rows.length;
  }
  return deleted;
}
