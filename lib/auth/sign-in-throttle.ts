import type { Db } from '../db/client';
import type { ClientInfo } from '../http/client-ip';
import { log } from '../log';
import { storableText } from '../stored-text';
import { SIGN_IN_LIMITS, clearAccountAddresses, clearLimit, countAttempt, isFull, rateLimited, readBuckets, secondsLeft } from './rate-limit';

/**
 * Sign-in throttling (docs/operations.md, "Sign-in throttling and lock-out"). Failures count per
 * account and client address, per address, and per account. An address that failed too often
 * for an account is paused for that account (the right password too, or guessing would go on);
 * an address that failed too often overall is paused for every account. Nobody else is: the
 * owner signing in from an address that has not failed gets through, whatever an attacker does
 * from elsewhere. Only past a much higher backstop of failures for the account from everywhere
 * (a distributed attack) are new addresses paused too, and addresses that signed in to the
 * account in the last 30 days still get through. The owner is mailed a notice when the account
 * sees as many failures as pause one address, at most once an hour.
 */

/** One try at an account (`adminAccount(name)` or `merchantAccount(email)`) from one client. */
export interface SignInAttempt {
  account: string;
  client: ClientInfo;
}

export const adminAccount = (name: string) => `admin:${name.toLowerCase()}`;
export const merchantAccount = (email: string) => `merchant:${email.toLowerCase()}`;

/** Who is told of repeated failures, and how; undefined for an account that does not exist. */
export type FailureNotice = (failures: { count: number; windowMinutes: number; address: string }) => Promise<void>;

const pair = (attempt: SignInAttempt) => ({ account: attempt.account, address: attempt.client.ip });

/** Refuses (429 with Retry-After) an attempt from an address that is paused for this account or for all. */
export async function assertSignInAllowed(db: Db, attempt: SignInAttempt): Promise<void> {
  const { failuresPerIp, failuresPerAccountAndIp, failuresPerAccount, knownAddresses } = SIGN_IN_LIMITS;
  const [fromAddress, forPair, forAccount, known] = await readBuckets(db, [
    { limit: failuresPerIp, subject: { address: attempt.client.ip } },
    { limit: failuresPerAccountAndIp, subject: pair(attempt) },
    { limit: failuresPerAccount, subject: attempt.account },
    { limit: knownAddresses, subject: pair(attempt) },
  ]);
  if (isFull(fromAddress, failuresPerIp)) throw rateLimited(secondsLeft(fromAddress!.windowStartedAt, failuresPerIp));
  if (isFull(forPair, failuresPerAccountAndIp)) throw rateLimited(secondsLeft(forPair!.windowStartedAt, failuresPerAccountAndIp));
  if (isFull(forAccount, failuresPerAccount) && !known) {
    const retryAfter = secondsLeft(forAccount!.windowStartedAt, failuresPerAccount);
    throw rateLimited(
      retryAfter,
      `This account is getting many failed sign-ins, so new addresses are paused for ${Math.ceil(retryAfter / 60)} minute(s). Sign in from an address you used before, or reset your password.`,
    );
  }
}

/**
 * Counts a failed attempt (wrong password, unknown account, wrong code) against the address,
 * the account from that address and the account; mails `notice` when the account's failures
 * reach what pauses one address, once an hour at most.
 */
export async function recordSignInFailure(db: Db, attempt: SignInAttempt, notice?: FailureNotice): Promise<void> {
  const { failuresPerIp, failuresPerAccountAndIp, failuresPerAccount, failureNotices } = SIGN_IN_LIMITS;
  await countAttempt(db, failuresPerIp, { address: attempt.client.ip });
  await countAttempt(db, failuresPerAccountAndIp, pair(attempt));
  const forAccount = await countAttempt(db, failuresPerAccount, attempt.account);
  if (!notice || forAccount.count !== failuresPerAccountAndIp.max) return;
  if ((await countAttempt(db, failureNotices, attempt.account)).count !== 1) return;
  try {
    // The address may be a forwarded header's text (TRUST_PROXY): kept short, like the audit log keeps it.
    await notice({ count: forAccount.count, windowMinutes: failuresPerAccount.windowSeconds / 60, address: storableText(attempt.client.ip, 64) });
  } catch (error) {
    // The refusal stands whether or not the owner could be told.
    log.error({ err: error }, 'could not write the failed sign-in notice');
  }
}

/** A completed sign-in: the address's failures for the account are forgotten, and the address is known to it. */
export async function recordSignInSuccess(db: Db, attempt: SignInAttempt): Promise<void> {
  await clearLimit(db, SIGN_IN_LIMITS.failuresPerAccountAndIp, pair(attempt));
  await countAttempt(db, SIGN_IN_LIMITS.knownAddresses, pair(attempt));
}

/** Proof of the mailbox (a password reset) lifts every pause of the account, from every address. */
export async function liftSignInPauses(db: Db, account: string): Promise<void> {
  await clearLimit(db, SIGN_IN_LIMITS.failuresPerAccount, account);
  await clearAccountAddresses(db, SIGN_IN_LIMITS.failuresPerAccountAndIp, account);
}
