import { sessionRoute } from '@/lib/server/http/session-route';
import { bearerToken } from '@/lib/http/request';
import { logoutOperations } from '@/lib/auth/api';
import { signOut } from '@/lib/auth/sessions';

export const POST = sessionRoute(logoutOperations.merchant, ({ db, body, request }) =>
  signOut(db, { audience: 'merchant', refreshToken: body.refreshToken, accessToken: bearerToken(request) }),
);
