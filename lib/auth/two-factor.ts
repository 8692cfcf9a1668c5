import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../db/client';
import { sellerRecoveryCodes, sellerUserTokens, sellerUsers } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError } from '../errors';
import { findMerchantById } from '../merchants/merchants';
import { findAccountUser, findSellerUser, type SellerUserRow } from '../merchants/users';
import { decryptSecret, encryptSecret } from '../secret-box';
import { randomToken, sha256Hex } from '../secrets';
import { consumeSellerToken, issueSellerToken } from './seller-tokens';
import { startSession, type TokenPair } from './sessions';
import type { SellerUserRef } from './seller-principal';
import { recordAudit } from '../audit/audit-log';
import { recordSellerSignIn } from './sign-in-audit';
import { SIGN_IN_LIMITS, assertUnderLimit, countAttempt } from './rate-limit';
import { assertSignInAllowed, merchantAccount, recordSignInFailure, recordSignInSuccess } from './sign-in-throttle';
import { sellerFailureNotice } from './sign-in-notices';
import type { ClientInfo } from '../http/client-ip';
import { TWO_FACTOR_CHALLENGE_TTL_SECONDS } from './lifetimes';

const ISSUER = 'Paybase';
const PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
/** Wrong codes one challenge takes before it is spent (the password must be typed again). */
const MAX_CHALLENGE_ATTEMPTS = 5;

// Each secret is sealed with its row and purpose as associated data.
const sealContext = (userId: string, purpose: 'active' | 'pending') => `seller-totp:${userId}:${purpose}`;

function totp(email: string, base32: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

/** The time step a 6-digit code belongs to (±1 step for clock drift), or undefined when wrong. */
function matchingStep(email: string, base32: string, code: string): number | undefined {
  const timestamp = now().getTime();
  const delta = totp(email, base32).validate({ token: code, timestamp, window: 1 });
  return delta === null ? undefined : Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}

const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
const isTotpShaped = (code: string) => /^\d{6}$/.test(normalizeCode(code));

/** Ten one-time codes, `xxxxx-xxxxx` (50 bits each), stored as SHA-256 only. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomToken(8)
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .padEnd(10, '0')
      .slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

async function requireUser(db: Db, ref: SellerUserRef): Promise<SellerUserRow> {
  const user = await findAccountUser(db, ref.merchantId, ref.userId);
  if (!user) throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  return user;
}

/** A pending secret as the app needs it: the base32 text, its otpauth:// URI and that URI as an SVG QR code. */
export interface TwoFactorSetup {
  secret: string;
  uri: string;
  qrSvg: string;
}

async function describeSetup(email: string, secret: string): Promise<TwoFactorSetup> {
  const uri = totp(email, secret).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qrSvg };
}

/**
 * Starts setting up an authenticator app: a new secret, kept sealed as "pending" until a code
 * proves the app has it. Answers that secret as the app needs it.
 */
export async function beginTwoFactorSetup(db: Db, ref: SellerUserRef): Promise<TwoFactorSetup> {
  const user = await requireUser(db, ref);
  if (user.twoFactorEnabledAt) throw new ApiError('CONFLICT', 'Two-factor sign-in is already on.');
  const secret = new Secret({ size: 20 }).base32;
  await db
    .update(sellerUsers)
    .set({ totpPendingSecret: encryptSecret(secret, sealContext(user.id, 'pending')), updatedAt: now() })
    .where(eq(sellerUsers.id, user.id));
  return describeSetup(user.email, secret);
}

/** The pending secret of a setup that is waiting to be confirmed, if any. */
export async function pendingTwoFactorSetup(user: SellerUserRow): Promise<TwoFactorSetup | undefined> {
  if (!user.totpPendingSecret || user.twoFactorEnabledAt) return undefined;
  return describeSetup(user.email, decryptSecret(user.totpPendingSecret, sealContext(user.id, 'pending')));
}

/** Turns two-factor on when the code matches the pending secret; returns the recovery codes, shown this once. */
export async function confirmTwoFactorSetup(db: Db, ref: SellerUserRef, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await requireUser(db, ref);
  if (user.twoFactorEnabledAt) throw new ApiError('CONFLICT', 'Two-factor sign-in is already on.');
  if (!user.totpPendingSecret) throw new ApiError('INVALID_STATE', 'Start the setup again: no authenticator is waiting to be confirmed.');
  const secret = decryptSecret(user.totpPendingSecret, sealContext(user.id, 'pending'));
  const step = isTotpShaped(code) ? matchingStep(user.email, secret, normalizeCode(code)) : undefined;
  if (step === undefined) throw wrongCode('code');
  const recoveryCodes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await tx
      .update(sellerUsers)
      .set({
        totpSecret: encryptSecret(secret, sealContext(user.id, 'active')),
        totpPendingSecret: null,
        totpLastStep: step,
        twoFactorEnabledAt: now(),
        updatedAt: now(),
      })
      .where(eq(sellerUsers.id, user.id));
    await replaceRecoveryCodes(tx, user.id, recoveryCodes);
    await recordAudit(tx, { merchantId: user.merchantId, action: 'seller.two_factor_enabled', target: { kind: 'seller_user', id: user.id } });
  });
  return { recoveryCodes };
}

async function replaceRecoveryCodes(tx: Db, userId: string, codes: string[]) {
  await tx.delete(sellerRecoveryCodes).where(eq(sellerRecoveryCodes.userId, userId));
  await tx
    .insert(sellerRecoveryCodes)
    .values(codes.map((code) => ({ id: newId('recoveryCode'), userId, codeHash: sha256Hex(normalizeCode(code)), createdAt: now() })));
}

/** New recovery codes (the old ones stop working), after a valid code. */
export async function regenerateRecoveryCodes(db: Db, ref: SellerUserRef, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await requireUser(db, ref);
  if (!(await spendSecondFactor(db, user, code))) throw wrongCode('code');
  const recoveryCodes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, recoveryCodes);
    await recordAudit(tx, { merchantId: user.merchantId, action: 'seller.recovery_codes_regenerated', target: { kind: 'seller_user', id: user.id } });
  });
  return { recoveryCodes };
}

/** Turns two-factor off after a valid code; refused while the account requires it. */
export async function disableTwoFactor(db: Db, ref: SellerUserRef, code: string): Promise<void> {
  const user = await requireUser(db, ref);
  if (!user.twoFactorEnabledAt) return;
  const account = await findMerchantById(db, user.merchantId);
  if (account?.requireTwoFactor)
    throw new ApiError('FORBIDDEN', 'Your account requires two-factor sign-in for everyone; an Owner can lift that under Security.');
  if (!(await spendSecondFactor(db, user, code))) throw wrongCode('code');
  await db.transaction(async (tx) => {
    await tx
      .update(sellerUsers)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, twoFactorEnabledAt: null, updatedAt: now() })
      .where(eq(sellerUsers.id, user.id));
    await tx.delete(sellerRecoveryCodes).where(eq(sellerRecoveryCodes.userId, user.id));
    await recordAudit(tx, { merchantId: user.merchantId, action: 'seller.two_factor_disabled', target: { kind: 'seller_user', id: user.id } });
  });
}

/**
 * Checks a second factor and spends it: a 6-digit code counts once (its time step must be newer
 * than the last accepted one, so a code seen over a shoulder cannot be replayed), a recovery code
 * once ever. Both are single conditional updates, safe under concurrent use.
 */
async function spendSecondFactor(db: Db, user: SellerUserRow, code: string): Promise<boolean> {
  if (!user.totpSecret) return false;
  if (isTotpShaped(code)) {
    const step = matchingStep(user.email, decryptSecret(user.totpSecret, sealContext(user.id, 'active')), normalizeCode(code));
    if (step === undefined) return false;
    const [spent] = await db
      .update(sellerUsers)
      .set({ totpLastStep: step })
      .where(and(eq(sellerUsers.id, user.id), or(isNull(sellerUsers.totpLastStep), lt(sellerUsers.totpLastStep, step))))
      .returning({ id: sellerUsers.id });
    return Boolean(spent);
  }
  const [used] = await db
    .update(sellerRecoveryCodes)
    .set({ usedAt: now() })
    .where(and(eq(sellerRecoveryCodes.userId, user.id), eq(sellerRecoveryCodes.codeHash, sha256Hex(normalizeCode(code))), isNull(sellerRecoveryCodes.usedAt)))
    .returning({ id: sellerRecoveryCodes.id });
  return Boolean(used);
}

export async function unusedRecoveryCodeCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(sellerRecoveryCodes)
    .where(and(eq(sellerRecoveryCodes.userId, userId), isNull(sellerRecoveryCodes.usedAt)));
  return row!.count;
}

/** The short-lived second step of a sign-in whose password was right (`tfc_…`, 5 minutes). */
export async function issueTwoFactorChallenge(tx: Db, userId: string): Promise<{ challengeToken: string; expiresIn: number }> {
  const challengeToken = await issueSellerToken(tx, { userId, purpose: 'two_factor_challenge', ttlSeconds: TWO_FACTOR_CHALLENGE_TTL_SECONDS });
  return { challengeToken, expiresIn: TWO_FACTOR_CHALLENGE_TTL_SECONDS };
}

const challengeEnded = () => new ApiError('UNAUTHENTICATED', 'This sign-in has expired or was already completed: sign in again with your password.');
const wrongCode = (path = 'code') =>
  new ApiError('UNAUTHENTICATED', 'The code is not correct.', { errors: [{ path, message: 'Enter the 6-digit code from your app, or a recovery code.' }] });

/**
 * Completes a sign-in with the challenge and a code (authenticator or recovery code): the token
 * pair only now. A wrong code counts as a failed sign-in, like a wrong password (per account and
 * address, per address, per account; the owner is told, as someone has the password), and
 * against the challenge, which dies after 5.
 */
export async function completeTwoFactorSignIn(db: Db, input: { challengeToken: string; code: string; client: ClientInfo }): Promise<TokenPair> {
  await assertUnderLimit(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
  const hash = sha256Hex(input.challengeToken);
  const [challenge] = await db
    .select()
    .from(sellerUserTokens)
    .where(
      and(
        eq(sellerUserTokens.tokenHash, hash),
        eq(sellerUserTokens.purpose, 'two_factor_challenge'),
        isNull(sellerUserTokens.usedAt),
        gt(sellerUserTokens.expiresAt, now()),
        lt(sellerUserTokens.attempts, MAX_CHALLENGE_ATTEMPTS),
      ),
    );
  const user = challenge && (await findSellerUser(db, challenge.userId));
  const account = user && (await findMerchantById(db, user.merchantId));
  if (!challenge || !user || account?.status !== 'active') {
    await countAttempt(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
    throw challengeEnded();
  }
  const attempt = { account: merchantAccount(user.email), client: input.client };
  await assertSignInAllowed(db, attempt);
  if (!(await spendSecondFactor(db, user, input.code))) {
    await db
      .update(sellerUserTokens)
      .set({ attempts: sql`${sellerUserTokens.attempts} + 1` })
      .where(eq(sellerUserTokens.id, challenge.id));
    await recordSignInFailure(db, attempt, sellerFailureNotice(db, user, 'two_factor'));
    await recordAudit(db, {
      merchantId: user.merchantId,
      action: 'seller.two_factor_failed',
      actor: { kind: 'anonymous', label: user.email },
      target: { kind: 'seller_user', id: user.id },
    });
    throw wrongCode();
  }
  const pair = await db.transaction(async (tx) => {
    if (!(await consumeSellerToken(tx, { token: input.challengeToken, purpose: 'two_factor_challenge' }))) return undefined;
    await recordSellerSignIn(tx, user, { method: 'two_factor' });
    return startSession(tx, { audience: 'merchant', subjectId: user.merchantId, userId: user.id });
  });
  if (!pair) throw challengeEnded();
  await recordSignInSuccess(db, attempt);
  return pair;
}
