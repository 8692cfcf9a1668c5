import { cache } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/errors';
import { findMerchantById } from '@/lib/merchants/merchants';
import { authorizeSeller, type SellerAccess } from '@/lib/merchants/access';
import type { Permission } from '@/lib/merchants/roles';
import { requireSession } from '@/lib/web/session';

/**
 * The signed-in seller user and its account, once per request and permission (layout and page
 * share it). Every console page calls it with what it needs: a role without that permission is
 * sent to the overview with a notice, a sign-in that ended to the sign-in page, and a member who
 * must first set up two-factor to the Security page.
 */
export const currentSeller = cache(async (permission: Permission) => {
  const principal = await requireSession('merchant');
  let access: SellerAccess;
  try {
    access = await authorizeSeller(getDb(), principal, permission);
  } catch (error) {
    if (error instanceof ApiError && error.options.extra?.reason === 'two_factor_setup_required') redirect('/merchant/security');
    if (error instanceof ApiError && error.code === 'FORBIDDEN') redirect(`/merchant?forbidden=${encodeURIComponent(permission)}`);
    if (error instanceof ApiError) redirect('/merchant/sign-in');
    throw error;
  }
  const merchant = await findMerchantById(getDb(), access.merchantId);
  if (!merchant) redirect('/merchant/sign-in');
  return { merchant, user: access.user };
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
