import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import type { SessionPrincipal } from '../auth/sessions';
import { sellerUserOf } from '../auth/seller-principal';
import { assertCanRefund, assertRoleCan, type Permission } from './roles';
import { findMerchantById } from './merchants';
import { findAccountUser, type SellerUserRow } from './users';

/** Who acts for a seller account: the account (tenant) and the signed-in user with its role. */
export interface SellerAccess {
  merchantId: string;
  user: SellerUserRow;
}

/**
 * The one authorization check of seller sign-ins (console pages, server actions and sign-in
 * APIs): the session's user, read now (so a role change or removal applies at once), must hold
 * the permission. Another role → 403 FORBIDDEN.
 */
export async function authorizeSeller(db: Db, principal: SessionPrincipal, permission: Permission): Promise<SellerAccess> {
  const { merchantId, userId } = sellerUserOf(principal);
  const user = await findAccountUser(db, merchantId, userId);
  if (!user) throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  assertRoleCan(user.role, permission);
  if (permission !== 'security' && !user.twoFactorEnabledAt && (await findMerchantById(db, merchantId))?.requireTwoFactor) {
    throw twoFactorSetupRequired();
  }
  return { merchantId, user };
}

/** The account requires two-factor and this user has none yet: only its own security settings are open. */
export const twoFactorSetupRequired = () =>
  new ApiError('FORBIDDEN', 'Your account requires two-factor sign-in: set up an authenticator app under Security first.', {
    extra: { reason: 'two_factor_setup_required' },
  });

/** A refund by a seller user: any amount for Owners and Admins, up to the account's limit for Support. */
export async function assertSellerMayRefund(db: Db, access: SellerAccess, refund: { amount: number; currency: string }): Promise<void> {
  const account = await findMerchantById(db, access.merchantId);
  const limit =
    account?.supportRefundLimit != null && account.supportRefundLimitCurrency
      ? { amount: account.supportRefundLimit, currency: account.supportRefundLimitCurrency }
      : null;
  assertCanRefund(access.user.role, limit, refund);
}
