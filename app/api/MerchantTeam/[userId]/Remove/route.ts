import { sessionRoute } from '@/lib/http/session-route';
import { removeMemberOperation } from '@/lib/merchants/api';
import { removeMember } from '@/lib/merchants/team';

export const POST = sessionRoute(removeMemberOperation, ({ db, seller, params }) => removeMember(db, seller, params.userId));
