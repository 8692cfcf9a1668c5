import { sessionRoute } from '@/lib/http/session-route';
import { inviteMemberOperation } from '@/lib/merchants/api';
import { inviteMember } from '@/lib/merchants/team';

export const POST = sessionRoute(inviteMemberOperation, ({ db, seller, body }) => inviteMember(db, seller, body));
