import { sessionRoute } from '@/lib/server/http/session-route';
import { refreshOperations } from '@/lib/auth/api';
import { rotateRefreshToken } from '@/lib/auth/sessions';

export const POST = sessionRoute(refreshOperations.member, ({ db, body }) => rotateRefreshToken(db, { refreshToken: body.refreshToken, audience: 'member' }));
