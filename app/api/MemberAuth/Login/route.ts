import { sessionRoute } from '@/lib/http/session-route';
import { memberLoginOperation } from '@/lib/auth/api';
import { requestMemberSignInLink } from '@/lib/auth/magic-links';

export const POST = sessionRoute(memberLoginOperation, async ({ db, body, client }) => ({
  sent: true,
  ...(await requestMemberSignInLink(db, { email: body.email, client })),
}));
