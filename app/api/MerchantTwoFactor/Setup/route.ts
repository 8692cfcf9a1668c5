import { sessionRoute } from '@/lib/server/http/session-route';
import { twoFactorSetupOperation } from '@/lib/auth/api';
import { beginTwoFactorSetup } from '@/lib/auth/two-factor';

export const POST = sessionRoute(twoFactorSetupOperation, ({ db, seller }) =>
  beginTwoFactorSetup(db, { merchantId: seller.merchantId, userId: seller.user.id }),
);
