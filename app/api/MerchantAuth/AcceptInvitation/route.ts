import { sessionRoute } from '@/lib/server/http/session-route';
import { acceptInvitationOperation } from '@/lib/team/api';
import { acceptInvitation } from '@/lib/team/team';
import { toSellerUserResponse } from '@/lib/merchants/users';

export const POST = sessionRoute(acceptInvitationOperation, async ({ db, body, client }) => {
  const { user, tokens } = await acceptInvitation(db, { ...body, client });
  return { ...tokens, user: toSellerUserResponse(user) };
});
