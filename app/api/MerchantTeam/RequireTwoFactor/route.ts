import { sessionRoute } from '@/lib/http/session-route';
import { requireTwoFactorOperation } from '@/lib/merchants/api';
import { setTeamTwoFactorRequirement } from '@/lib/merchants/team';

export const POST = sessionRoute(requireTwoFactorOperation, ({ db, seller, body }) => setTeamTwoFactorRequirement(db, seller, body.required));
