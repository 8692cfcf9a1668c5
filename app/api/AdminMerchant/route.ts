import { sessionRoute } from '@/lib/server/http/session-route';
import { listMerchantsOperation } from '@/lib/auth/api';
import { listMerchants } from '@/lib/merchants/merchants';

export const GET = sessionRoute(listMerchantsOperation, ({ db, query }) => listMerchants(db, query));
