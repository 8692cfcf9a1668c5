import { sessionRoute } from '@/lib/server/http/session-route';
import { changeRoleOperation } from '@/lib/team/api';
import { changeMemberRole } from '@/lib/team/team';

export const POST = sessionRoute(changeRoleOperation, ({ db, seller, params, body }) => changeMemberRole(db, seller, params.userId, body.role));
