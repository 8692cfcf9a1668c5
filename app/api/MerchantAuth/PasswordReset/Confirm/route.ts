import { sessionRoute } from '@/lib/server/http/session-route';
import { merchantPasswordResetConfirmOperation } from '@/lib/auth/api';
import { resetPassword } from '@/lib/auth/password-reset';

export const POST = sessionRoute(merchantPasswordResetConfirmOperation, ({ db, body, client }) => resetPassword(db, { ...body, client }));
