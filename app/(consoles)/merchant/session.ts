import { cache } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { assertSellerMay, authorizeSeller, loadSeller, type SellerAccess } from '@/lib/auth/seller-access';
import type { Permission } from '@/lib/http/permissions';
import { requireSession } from '@/lib/server/web/session';

/** The session's user and account, loaded once per request (layout and page share it). */
const signedInSeller = cache(async () => {
  const principal = await requireSession('merchant');
  try {
    return await loadSeller(getDb(), principal);
  } catch (error) {
    if (error instanceof ApiError) redirect('/merchant/sign-in');
    throw error;
  }
});

/**
 * The signed-in seller user and its account, if the role allows `permission`. Every console
 * page calls it with what it needs: a role without that permission is sent to the overview
 * with a notice, and a member who must first set up two-factor to the Security page.
 */
export const currentSeller = cache(async (permission: Permission) => {
  const { user, account } = await signedInSeller();
  try {
    assertSellerMay(user, account, permission);
  } catch (error) {
    if (error instanceof ApiError && error.options.extra?.reason === 'two_factor_setup_required') redirect('/merchant/security');
    if (error instanceof ApiError && error.code === 'FORBIDDEN') redirect(`/merchant?forbidden=${encodeURIComponent(permission)}`);
    throw error;
  }
  return { merchant: account, user };
});

/** The signed-in seller account (the tenant a page reads), if the user's role allows `permission`. */
export const currentMerchant = async (permission: Permission) => (await currentSeller(permission)).merchant;

/**
 * Every seller server action starts here: the session is re-checked and the role must allow
 * `permission` (else 403 FORBIDDEN, shown in the form). The tenant comes from the session,
 * never from the form.
 */
export async function sellerAction(permission: Permission): Promise<SellerAccess> {
  return authorizeSeller(getDb(), await requireSession('merchant'), permission);
}

export const sellerAccountId = async (permission: Permission) => (await sellerAction(permission)).merchantId;
