import { sessionRoute } from '@/lib/server/http/session-route';
import { requireTwoFactorOperation } from '@/lib/team/api';
import { setTeamTwoFactorRequirement } from '@/lib/team/team';

export const POST = sessionRoute(requireTwoFactorOperation, ({ db, seller, body }) => setTeamTwoFactorRequirement(db, seller, body.required));
