import { sessionRoute } from '@/lib/server/http/session-route';
import { revokeInvitationOperation } from '@/lib/team/api';
import { revokeInvitation } from '@/lib/team/team';

export const POST = sessionRoute(revokeInvitationOperation, ({ db, seller, params }) => revokeInvitation(db, seller, params.invitationId));
