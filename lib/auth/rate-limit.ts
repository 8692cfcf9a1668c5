import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Db } from '../db/client';
import { rateLimitBuckets } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { ApiError } from '../errors';
import { sha256Hex } from '../secrets';

export interface RateLimit {
  /** Names the bucket family, e.g. `login-account`. */
  name: string;
  max: number;
  windowSeconds: number;
}

/**
 * What a bucket counts for: an account or an email address, a client address (`{ address }`,
 * counted by its network: an IPv6 client holds a whole /64), or an account from one address.
 */
export type LimitSubject = string | { address: string } | { account: string; address: string };

const FIFTEEN_MINUTES = 15 * 60;

/** Sign-in limits (docs/auth.md, "Rate limits"). Windows are fixed: the count resets when the window ends. */
export const SIGN_IN_LIMITS = {
  /** Failed sign-ins (passwords, two-factor codes) for one account from one client address. */
  failuresPerAccountAndIp: { name: 'login-account-ip', max: config.auth.signInMaxFailuresPerAccountAndIp, windowSeconds: FIFTEEN_MINUTES },
  /** The backstop: failed sign-ins for one account from every address. */
  failuresPerAccount: { name: 'login-account', max: config.auth.signInMaxFailuresPerAccount, windowSeconds: FIFTEEN_MINUTES },
  /** Failed sign-ins of any kind from one client address. */
  failuresPerIp: { name: 'login-ip', max: config.auth.signInMaxFailuresPerIp, windowSeconds: FIFTEEN_MINUTES },
  /** Addresses that signed in to an account: let through while the account is over its backstop. */
  knownAddresses: { name: 'login-known', max: 1, windowSeconds: 30 * 24 * 60 * 60 },
  /** Notices of failed sign-ins mailed to an account's owner. */
  failureNotices: { name: 'login-notice', max: 1, windowSeconds: 60 * 60 },
  /** Wallet sign-in links mailed to one address. */
  linksPerEmail: { name: 'member-link-email', max: 5, windowSeconds: FIFTEEN_MINUTES },
  /** Password-reset links asked for one email address (known or not). */
  resetsPerEmail: { name: 'reset-email', max: config.auth.passwordResetMaxPerEmail, windowSeconds: 60 * 60 },
  /** Team invitations sent by one seller account. */
  invitationsPerAccount: { name: 'invitations-account', max: 20, windowSeconds: 60 * 60 },
  /** Email-verification links re-sent for one seller user. */
  verificationResendsPerUser: { name: 'verify-resend-user', max: 3, windowSeconds: 60 * 60 },
  /** Wallet sign-in links, seller sign-ups and password-reset requests from one client address. */
  requestsPerIp: { name: 'signup-ip', max: config.auth.signUpMaxPerIp, windowSeconds: FIFTEEN_MINUTES },
} satisfies Record<string, RateLimit>;

/**
 * The network a client address stands for: an IPv4 address itself, an IPv6 address's /64 (one
 * subscriber line or host gets a whole /64, so counting single IPv6 addresses would give an
 * attacker endless fresh ones). IPv4-mapped IPv6 counts as the IPv4 address.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address.toLowerCase();
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

// Identifiers are hashed so the table holds no email addresses or IPs in clear. An account's
// per-address buckets share the account's hash as a prefix, so all of them can be cleared at once.
const hashOf = (text: string) => sha256Hex(text.toLowerCase());
export function bucketKey(limit: RateLimit, subject: LimitSubject): string {
  if (typeof subject === 'string') return `${limit.name}:${hashOf(subject)}`;
  if ('account' in subject) return `${limit.name}:${hashOf(subject.account)}:${hashOf(addressNetwork(subject.address))}`;
  return `${limit.name}:${hashOf(addressNetwork(subject.address))}`;
}

export interface Bucket {
  count: number;
  windowStartedAt: Date;
}

/** The live buckets (window not ended) among `keys`, by key: one query for several limits. */
export async function readBuckets(db: Db, keys: readonly { limit: RateLimit; subject: LimitSubject }[]): Promise<(Bucket | undefined)[]> {
  const named = keys.map(({ limit, subject }) => ({ limit, key: bucketKey(limit, subject) }));
  const rows = await db
    .select()
    .from(rateLimitBuckets)
    .where(
      inArray(
        rateLimitBuckets.key,
        named.map((entry) => entry.key),
      ),
    );
  return named.map(({ limit, key }) => {
    const row = rows.find((candidate) => candidate.key === key);
    return row && secondsLeft(row.windowStartedAt, limit) > 0 ? { count: row.count, windowStartedAt: row.windowStartedAt } : undefined;
  });
}

/** Whether a live bucket is at its limit: the next attempt is refused. */
export const isFull = (bucket: Bucket | undefined, limit: RateLimit) => Boolean(bucket && bucket.count >= limit.max);

/** Throws 429 RATE_LIMITED with Retry-After when the bucket is full; counts nothing. */
export async function assertUnderLimit(db: Db, limit: RateLimit, subject: LimitSubject): Promise<void> {
  const [bucket] = await readBuckets(db, [{ limit, subject }]);
  if (isFull(bucket, limit)) throw rateLimited(secondsLeft(bucket!.windowStartedAt, limit));
}

/** Adds one to the bucket, starting a new window when the last one ended. */
export async function countAttempt(db: Db, limit: RateLimit, subject: LimitSubject): Promise<Bucket> {
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
export async function consumeLimit(db: Db, limit: RateLimit, subject: LimitSubject): Promise<void> {
  const bucket = await countAttempt(db, limit, subject);
  if (bucket.count > limit.max) throw rateLimited(secondsLeft(bucket.windowStartedAt, limit));
}

export async function clearLimit(db: Db, limit: RateLimit, subject: LimitSubject): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, bucketKey(limit, subject)));
}

/** Clears one account's buckets of a per-account-and-address limit, for every address. */
export async function clearAccountAddresses(db: Db, limit: RateLimit, account: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(sql`starts_with(${rateLimitBuckets.key}, ${`${limit.name}:${hashOf(account)}:`})`);
}

export function secondsLeft(windowStartedAt: Date, limit: RateLimit): number {
  return Math.ceil((windowStartedAt.getTime() + limit.windowSeconds * 1000 - now().getTime()) / 1000);
}

export function rateLimited(retryAfter: number, detail = `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`): ApiError {
  return new ApiError('RATE_LIMITED', detail, {
    retryAfterSeconds: retryAfter,
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
