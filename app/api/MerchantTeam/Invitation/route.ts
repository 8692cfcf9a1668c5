import { sessionRoute } from '@/lib/server/http/session-route';
import { inviteMemberOperation } from '@/lib/team/api';
import { inviteMember } from '@/lib/team/team';

export const POST = sessionRoute(inviteMemberOperation, ({ db, seller, body }) => inviteMember(db, seller, body));
