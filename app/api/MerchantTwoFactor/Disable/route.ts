import { sessionRoute } from '@/lib/server/http/session-route';
import { twoFactorDisableOperation } from '@/lib/auth/api';
import { disableTwoFactor } from '@/lib/auth/two-factor';

export const POST = sessionRoute(twoFactorDisableOperation, ({ db, seller, body }) =>
  disableTwoFactor(db, { merchantId: seller.merchantId, userId: seller.user.id }, body.code),
);
