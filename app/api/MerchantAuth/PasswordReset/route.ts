import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantPasswordResetOperation } from '@/lib/auth/api';
import { requestPasswordReset } from '@/lib/auth/password-reset';

export const POST = sessionRoute(merchantPasswordResetOperation, async ({ db, body, client }) => ({
  sent: true as const,
  ...(await requestPasswordReset(db, { email: body.email, client })),
}));
