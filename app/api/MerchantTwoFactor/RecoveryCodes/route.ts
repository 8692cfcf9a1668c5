import { sessionRoute } from '@/lib/server/http/session-route';
import { twoFactorRecoveryCodesOperation } from '@/lib/auth/api';
import { regenerateRecoveryCodes } from '@/lib/auth/two-factor';

export const POST = sessionRoute(twoFactorRecoveryCodesOperation, ({ db, seller, body }) =>
  regenerateRecoveryCodes(db, { merchantId: seller.merchantId, userId: seller.user.id }, body.code),
);
