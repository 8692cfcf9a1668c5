import { sessionRoute } from '@/lib/server/http/session-route';
import { memberVerifyOperation } from '@/lib/auth/api';
import { verifyMemberSignInLink } from '@/lib/auth/magic-links';

export const POST = sessionRoute(memberVerifyOperation, ({ db, body, client }) => verifyMemberSignInLink(db, { loginToken: body.loginToken, client }));
