import { sessionRoute } from '@/lib/server/http/session-route';
import { twoFactorConfirmOperation } from '@/lib/auth/api';
import { confirmTwoFactorSetup } from '@/lib/auth/two-factor';

export const POST = sessionRoute(twoFactorConfirmOperation, ({ db, seller, body }) =>
  confirmTwoFactorSetup(db, { merchantId: seller.merchantId, userId: seller.user.id }, body.code),
);
