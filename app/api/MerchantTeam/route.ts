import { sessionRoute } from '@/lib/http/session-route';
import { listTeamOperation } from '@/lib/merchants/api';
import { listTeam } from '@/lib/merchants/team';

export const GET = sessionRoute(listTeamOperation, ({ db, seller }) => listTeam(db, seller.merchantId));
