import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantResendVerificationOperation } from '@/lib/auth/api';
import { resendVerificationEmail } from '@/lib/auth/email-verification';
import { sellerUserOf } from '@/lib/auth/seller-principal';

export const POST = sessionRoute(merchantResendVerificationOperation, async ({ db, principal }) => ({
  sent: true as const,
  ...(await resendVerificationEmail(db, sellerUserOf(principal))),
}));
