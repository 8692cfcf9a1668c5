import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { SessionPrincipal } from './sessions';
import { sellerUserOf } from './seller-principal';
import { assertCanRefund, assertRoleCan } from '../merchants/roles';
import type { Permission } from '../http/permissions';
import { and, eq } from 'drizzle-orm';
import { merchants, sellerUsers } from '../db/schema';
import { findMerchantById, type MerchantRow } from '../merchants/merchants';
import type { SellerUserRow } from '../merchants/users';

/** Who acts for a seller account: the account (tenant) and the signed-in user with its role. */
export interface SellerAccess {
  merchantId: string;
  user: SellerUserRow;
}

/** The session's user and its account, read now (so a role change or removal applies at once); gone → 401. */
export async function loadSeller(db: Db, principal: SessionPrincipal): Promise<{ user: SellerUserRow; account: MerchantRow }> {
  const { merchantId, userId } = sellerUserOf(principal);
  const [row] = await db
    .select({ user: sellerUsers, account: merchants })
    .from(sellerUsers)
    .innerJoin(merchants, eq(merchants.id, sellerUsers.merchantId))
    .where(and(eq(sellerUsers.id, userId), eq(sellerUsers.merchantId, merchantId)));
  if (!row) throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  return row;
}

/**
 * The rule of every seller authorization: the role must hold the permission (else 403
 * FORBIDDEN), and when the account requires two-factor, a user without it may only manage its
 * own security.
 */
export function assertSellerMay(user: SellerUserRow, account: Pick<MerchantRow, 'requireTwoFactor'>, permission: Permission): void {
  assertRoleCan(user.role, permission);
  if (permission !== 'security' && account.requireTwoFactor && !user.twoFactorEnabledAt) throw twoFactorSetupRequired();
}

/**
 * The one authorization check of seller sign-ins (console pages, server actions and sign-in
 * APIs): `loadSeller` then `assertSellerMay`.
 */
export async function authorizeSeller(db: Db, principal: SessionPrincipal, permission: Permission): Promise<SellerAccess> {
  const { user, account } = await loadSeller(db, principal);
  assertSellerMay(user, account, permission);
  return { merchantId: account.id, user };
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
