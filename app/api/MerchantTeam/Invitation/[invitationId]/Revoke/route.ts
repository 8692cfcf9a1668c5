import { sessionRoute } from '@/lib/http/session-route';
import { revokeInvitationOperation } from '@/lib/merchants/api';
import { revokeInvitation } from '@/lib/merchants/team';

export const POST = sessionRoute(revokeInvitationOperation, ({ db, seller, params }) => revokeInvitation(db, seller, params.invitationId));
