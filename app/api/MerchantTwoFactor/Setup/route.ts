import { sessionRoute } from '@/lib/http/session-route';
import { twoFactorSetupOperation } from '@/lib/auth/api';
import { beginTwoFactorSetup, pendingTwoFactorSetup } from '@/lib/auth/two-factor';
import { findSellerUser } from '@/lib/merchants/users';

export const POST = sessionRoute(twoFactorSetupOperation, async ({ db, seller }) => {
  await beginTwoFactorSetup(db, { merchantId: seller.merchantId, userId: seller.user.id });
  return pendingTwoFactorSetup((await findSellerUser(db, seller.user.id))!);
});
