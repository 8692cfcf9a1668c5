import { sessionRoute } from '@/lib/server/http/session-route';
import { bearerToken } from '@/lib/http/request';
import { logoutOperations } from '@/lib/auth/api';
import { signOut } from '@/lib/auth/sessions';

export const POST = sessionRoute(logoutOperations.member, ({ db, body, request }) =>
  signOut(db, { audience: 'member', refreshToken: body.refreshToken, accessToken: bearerToken(request) }),
);
