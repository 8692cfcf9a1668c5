import { apiRoute } from '@/lib/server/http/api-route';
import { listDisputesOperation } from '@/lib/payments/api';
import { listDisputes } from '@/lib/payments/disputes';

export const GET = apiRoute(listDisputesOperation, ({ db, merchantId, query }) => listDisputes(db, merchantId, query));
