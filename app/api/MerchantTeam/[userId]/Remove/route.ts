import { sessionRoute } from '@/lib/server/http/session-route';
import { removeMemberOperation } from '@/lib/team/api';
import { removeMember } from '@/lib/team/team';

export const POST = sessionRoute(removeMemberOperation, ({ db, seller, params }) => removeMember(db, seller, params.userId));
