import { recordAudit } from '../audit/audit-log';
import type { Db } from '../db/client';
import { config } from '../config';
import { ApiError } from '../errors';
import { sendEmail } from '../email/send-email';
import { findSellerUser, findSellerUserByEmail, setSellerUserPassword } from '../merchants/users';
import { hashPassword } from '../passwords';
import { consumeSellerToken, isLiveSellerToken, issueSellerToken, spendOpenTokens } from './seller-tokens';
import { endUserSessions } from './sessions';
import { PASSWORD_RESET_TTL_SECONDS } from './lifetimes';
import { SIGN_IN_LIMITS, assertUnderLimit, consumeLimit, countAttempt } from './rate-limit';
import { liftSignInPauses, merchantAccount } from './sign-in-throttle';
import type { ClientInfo } from '../http/client-ip';

export const RESET_PASSWORD_PATH = '/merchant/reset-password';

/**
 * Mails a single-use password-reset link when a seller user has this email. The answer is the
 * same either way, and both limits (per address, per client) count unknown addresses too.
 */
export async function requestPasswordReset(db: Db, input: { email: string; client: ClientInfo }): Promise<{ expiresIn: number }> {
  await consumeLimit(db, SIGN_IN_LIMITS.requestsPerIp, { address: input.client.ip });
  await consumeLimit(db, SIGN_IN_LIMITS.resetsPerEmail, input.email);
  const user = await findSellerUserByEmail(db, input.email);
  if (user) {
    await db.transaction(async (tx) => {
      const token = await issueSellerToken(tx, { userId: user.id, purpose: 'password_reset', ttlSeconds: PASSWORD_RESET_TTL_SECONDS });
      const link = `${config.publicUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
      const minutes = PASSWORD_RESET_TTL_SECONDS / 60;
      await sendEmail(tx, {
        to: user.email,
        subject: 'Reset your Paybase password',
        category: 'merchant.password_reset',
        text: [
          'Someone (hopefully you) asked to reset the password of your Paybase seller account.',
          '',
          link,
          '',
          `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
          '',
          `Reset code (for apps): ${token}`,
        ].join('\n'),
        html: `<p>Someone (hopefully you) asked to reset the password of your Paybase seller account.</p><p><a href="${link}">Choose a new password</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.</p>`,
        secrets: [token],
      });
      await recordAudit(tx, {
        merchantId: user.merchantId,
        action: 'seller.password_reset_requested',
        actor: { kind: 'anonymous', label: user.email },
        target: { kind: 'seller_user', id: user.id },
      });
    });
  }
  return { expiresIn: PASSWORD_RESET_TTL_SECONDS };
}

/**
 * Sets a new password with a reset link's token (once, within 30 minutes). Every sign-in of the
 * user ends (all refresh-token families, so their access tokens too), the address counts as
 * verified (the link proved it), and the account's failed-sign-in lock is lifted.
 */
export async function resetPassword(db: Db, input: { resetToken: string; password: string; client: ClientInfo }): Promise<void> {
  await assertUnderLimit(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
  // A dead link is refused before the (deliberately slow, memory-hungry) password hash.
  const passwordHash = (await isLiveSellerToken(db, { token: input.resetToken, purpose: 'password_reset' })) ? await hashPassword(input.password) : undefined;
  const user = await db.transaction(async (tx) => {
    if (!passwordHash) return undefined;
    const spent = await consumeSellerToken(tx, { token: input.resetToken, purpose: 'password_reset' });
    if (!spent) return undefined;
    await setSellerUserPassword(tx, spent.userId, passwordHash);
    await spendOpenTokens(tx, spent.userId, 'password_reset');
    await endUserSessions(tx, { userId: spent.userId, reason: 'password_reset' });
    const row = (await findSellerUser(tx, spent.userId))!;
    await recordAudit(tx, {
      merchantId: row.merchantId,
      action: 'seller.password_reset',
      actor: { kind: 'seller_user', id: row.id, label: row.email },
      target: { kind: 'seller_user', id: row.id },
    });
    await sendEmail(tx, {
      to: row.email,
      subject: 'Your Paybase password was changed',
      category: 'merchant.password_changed',
      text: 'The password of your Paybase seller account was just changed with a reset link, and every sign-in was ended. If this was not you, reset it again at once and tell your account owner.',
    });
    return row;
  });
  if (!user) {
    await countAttempt(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
    throw new ApiError(
      'UNAUTHENTICATED',
      'This password-reset link is not valid: it was already used, replaced by a newer one, or has expired. Ask for a new one.',
    );
  }
  await liftSignInPauses(db, merchantAccount(user.email));
}
