import { sessionRoute } from '@/lib/server/http/session-route';
import { identityOperation } from '@/lib/auth/api';
import { getIdentity } from '@/lib/auth/identity';

export const GET = sessionRoute(identityOperation, ({ db, principal }) => getIdentity(db, principal));
