import { sessionRoute } from '@/lib/server/http/session-route';
import { listTeamOperation } from '@/lib/team/api';
import { listTeam } from '@/lib/team/team';

export const GET = sessionRoute(listTeamOperation, ({ db, seller }) => listTeam(db, seller.merchantId));
