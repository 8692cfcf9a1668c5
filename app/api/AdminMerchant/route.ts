import { sessionRoute } from '@/lib/http/session-route';
import { listMerchantsOperation } from '@/lib/auth/api';
import { listMerchants } from '@/lib/merchants/merchants';

export const GET = sessionRoute(listMerchantsOperation, ({ db, query }) => listMerchants(db, query));
