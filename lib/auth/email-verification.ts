import type { Db } from '../db/client';
import { config } from '../config';
import { ApiError } from '../errors';
import { sendEmail } from '../email/send-email';
import { findAccountUser, findSellerUser, markEmailVerified, toSellerUserResponse, type SellerUserRow } from '../merchants/users';
import { consumeSellerToken, issueSellerToken } from './seller-tokens';
import { EMAIL_VERIFICATION_TTL_SECONDS } from './lifetimes';
import { SIGN_IN_LIMITS, assertUnderLimit, consumeLimit, countAttempt } from './rate-limit';
import type { ClientInfo } from '../http/client-ip';

export const VERIFY_EMAIL_PATH = '/merchant/verify-email';

/** Queues the verification link in the caller's transaction (sent only if it commits). */
export async function sendVerificationEmail(tx: Db, user: Pick<SellerUserRow, 'id' | 'email'>): Promise<void> {
  const token = await issueSellerToken(tx, { userId: user.id, purpose: 'email_verification', ttlSeconds: EMAIL_VERIFICATION_TTL_SECONDS });
  const link = `${config.publicUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
  await sendEmail(tx, {
    to: user.email,
    subject: 'Confirm your email address for Paybase',
    category: 'merchant.verify_email',
    text: [
      'Confirm this is your email address for your Paybase seller account:',
      '',
      link,
      '',
      'The link works once and expires in 24 hours. If you did not sign up, ignore this email.',
      '',
      `Verification code (for apps): ${token}`,
    ].join('\n'),
    html: `<p>Confirm this is your email address for your Paybase seller account:</p><p><a href="${link}">Confirm my email</a></p><p>The link works once and expires in 24 hours. If you did not sign up, ignore this email.</p>`,
    secrets: [token],
  });
}

/** Mails a new verification link to the signed-in user (the previous link stops working). */
export async function resendVerificationEmail(db: Db, input: { merchantId: string; userId: string }): Promise<{ expiresIn: number }> {
  const user = await findAccountUser(db, input.merchantId, input.userId);
  if (!user) throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  if (user.emailVerifiedAt) throw new ApiError('CONFLICT', 'Your email address is already verified.');
  await consumeLimit(db, SIGN_IN_LIMITS.verificationResendsPerUser, user.id);
  await db.transaction((tx) => sendVerificationEmail(tx, user));
  return { expiresIn: EMAIL_VERIFICATION_TTL_SECONDS };
}

/** Spends a verification link's token (once, within 24 hours) and marks the address verified. */
export async function verifySellerEmail(db: Db, input: { verificationToken: string; client: ClientInfo }) {
  await assertUnderLimit(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
  const user = await db.transaction(async (tx) => {
    const spent = await consumeSellerToken(tx, { token: input.verificationToken, purpose: 'email_verification' });
    if (!spent) return undefined;
    await markEmailVerified(tx, spent.userId);
    return findSellerUser(tx, spent.userId);
  });
  if (!user) {
    await countAttempt(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
    throw new ApiError('UNAUTHENTICATED', 'This verification link is not valid: it was already used, replaced by a newer one, or has expired.');
  }
  return toSellerUserResponse(user);
}
