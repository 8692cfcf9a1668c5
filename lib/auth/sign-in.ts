import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findAdminByName } from '../admins/admins';
import { createMerchant, findMerchantById, type AccountType } from '../merchants/merchants';
import { findSellerUserByEmail } from '../merchants/users';
import { sendVerificationEmail } from './email-verification';
import { issueTwoFactorChallenge } from './two-factor';
import { hashPassword, verifyPassword } from '../passwords';
import { startSession, type TokenPair } from './sessions';
import { recordAudit } from '../audit/audit-log';
import { recordSellerSignIn, recordSellerSignInFailure } from './sign-in-audit';
import { SIGN_IN_LIMITS, consumeLimit } from './rate-limit';
import {
  adminAccount,
  assertSignInAllowed,
  merchantAccount,
  recordSignInFailure,
  recordSignInSuccess,
  type FailureNotice,
  type SignInAttempt,
} from './sign-in-throttle';
import { adminFailureNotice, sellerFailureNotice } from './sign-in-notices';
import type { ClientInfo } from '../http/client-ip';
import { isUniqueViolation } from '../db/errors';

// One answer for every credential failure, so a caller cannot learn which accounts exist.
const badCredentials = () => new ApiError('UNAUTHENTICATED', 'The sign-in details are not correct.');

let dummyHash: Promise<string> | undefined;
/** Hashing against a throwaway hash when the account does not exist keeps both paths equally slow. */
const timingDecoy = () => (dummyHash ??= hashPassword('paybase-timing-decoy'));

/**
 * Checks a password sign-in under the sign-in throttle (lib/auth/sign-in-throttle.ts): a paused
 * address is refused before the password is looked at; a failure counts (and may notify the
 * owner). A right password is not yet a completed sign-in (a second factor may follow): the
 * caller records the success once it is one.
 */
async function passwordSignIn<T>(
  db: Db,
  attempt: SignInAttempt & { password: string },
  find: () => Promise<{ row: T; passwordHash: string; allowed: boolean; refusal?: ApiError; notice: FailureNotice } | undefined>,
  recordFailure: (found: T | undefined, reason: string) => Promise<void>,
): Promise<T> {
  try {
    await assertSignInAllowed(db, attempt);
  } catch (error) {
    await recordFailure(undefined, 'rate_limited');
    throw error;
  }
  const found = await find();
  const passwordOk = await verifyPassword(attempt.password, found?.passwordHash ?? (await timingDecoy()));
  if (!found || !passwordOk || !found.allowed) {
    await recordSignInFailure(db, attempt, found?.notice);
    await recordFailure(found?.row, !found ? 'unknown_account' : !passwordOk ? 'wrong_password' : 'wrong_account_type');
    throw badCredentials();
  }
  // Only someone who knows the password learns why a valid sign-in is refused.
  if (found.refusal) {
    await recordFailure(found.row, found.refusal.code.toLowerCase());
    throw found.refusal;
  }
  return found.row;
}

export async function signInAdmin(db: Db, input: { name: string; password: string; client: ClientInfo }): Promise<TokenPair> {
  const attempt = { account: adminAccount(input.name), client: input.client };
  const admin = await passwordSignIn(
    db,
    { ...attempt, password: input.password },
    async () => {
      const row = await findAdminByName(db, input.name);
      return row && { row, passwordHash: row.passwordHash, allowed: true, notice: adminFailureNotice(db, row) };
    },
    // A failure has no transaction to join: its entry is written on its own.
    (found, reason) =>
      recordAudit(db, {
        merchantId: null,
        action: 'admin.sign_in_failed',
        actor: { kind: 'anonymous', label: input.name },
        target: found ? { kind: 'admin', id: found.id } : undefined,
        metadata: { reason },
      }),
  );
  await recordSignInSuccess(db, attempt);
  return db.transaction(async (tx) => {
    await recordAudit(tx, {
      merchantId: null,
      action: 'admin.sign_in',
      actor: { kind: 'admin', id: admin.id, label: admin.name },
      target: { kind: 'admin', id: admin.id },
    });
    return startSession(tx, { audience: 'admin', subjectId: admin.id });
  });
}

/** A password sign-in's outcome: the token pair, or (two-factor on) the challenge for the second step. */
export type MerchantSignIn = { kind: 'tokens'; tokens: TokenPair } | { kind: 'challenge'; challengeToken: string; expiresIn: number };

/**
 * A seller user signs in with email, password and (optionally) the account type of its seller
 * account; a different account type gets the same 401 as a wrong password. A suspended account
 * with the right password answers 403 `ACCOUNT_SUSPENDED` (a wrong password still gets the 401,
 * so nothing about the account leaks to someone without its password).
 * The session names the account (`sub`, the tenant) and the user. With two-factor on, no tokens
 * yet: a 5-minute challenge for `completeTwoFactorSignIn`. When the account requires two-factor
 * and the user has none, only the console may sign in (to set it up: every other page and call
 * is refused until then); the API answers 403.
 */
export async function signInMerchant(
  db: Db,
  input: { email: string; password: string; accountType?: AccountType; client: ClientInfo; allowTwoFactorSetup?: boolean },
): Promise<MerchantSignIn> {
  const attempt = { account: merchantAccount(input.email), client: input.client };
  const user = await passwordSignIn(
    db,
    { ...attempt, password: input.password },
    async () => {
      const row = await findSellerUserByEmail(db, input.email);
      const account = row && (await findMerchantById(db, row.merchantId));
      return (
        row &&
        account && {
          row: { ...row, requireTwoFactor: account.requireTwoFactor },
          passwordHash: row.passwordHash,
          allowed: !input.accountType || input.accountType === account.accountType,
          refusal: account.status === 'suspended' ? accountSuspended() : undefined,
          notice: sellerFailureNotice(db, row, 'password'),
        }
      );
    },
    (found, reason) => recordSellerSignInFailure(db, { email: input.email, user: found, reason }),
  );
  if (user.twoFactorEnabledAt) return { kind: 'challenge', ...(await db.transaction((tx) => issueTwoFactorChallenge(tx, user.id))) };
  if (user.requireTwoFactor && !input.allowTwoFactorSetup) {
    await recordSellerSignInFailure(db, { email: input.email, user, reason: 'two_factor_setup_required' });
    throw new ApiError('FORBIDDEN', 'Your account requires two-factor sign-in: sign in to the seller console once to set up an authenticator app.');
  }
  await recordSignInSuccess(db, attempt);
  const tokens = await db.transaction(async (tx) => {
    await recordSellerSignIn(tx, user, { method: 'password' });
    return startSession(tx, { audience: 'merchant', subjectId: user.merchantId, userId: user.id });
  });
  return { kind: 'tokens', tokens };
}

/**
 * Seller sign-up: creates the account and its Owner, mails the email-verification link and signs
 * the Owner in. A taken email (of any seller user) answers 409.
 */
export async function registerMerchant(db: Db, input: { email: string; password: string; name: string; accountType: AccountType; client: ClientInfo }) {
  await consumeLimit(db, SIGN_IN_LIMITS.requestsPerIp, { address: input.client.ip });
  if (await findSellerUserByEmail(db, input.email)) throw emailTaken();
  try {
    return await db.transaction(async (tx) => {
      const merchant = await createMerchant(tx, input);
      await sendVerificationEmail(tx, merchant.owner);
      return { merchant, tokens: await startSession(tx, { audience: 'merchant', subjectId: merchant.id, userId: merchant.owner.id }) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

const accountSuspended = () =>
  new ApiError(
    'ACCOUNT_SUSPENDED',
    'This seller account is suspended: sign-in, API keys and payments are stopped. Contact Paybase support to have it reinstated.',
  );

const emailTaken = () =>
  new ApiError('CONFLICT', 'An account with this email already exists: sign in instead.', {
    errors: [{ path: 'email', message: 'Already registered.' }],
  });
