import { apiRoute } from '@/lib/server/http/api-route';
import { getDisputeOperation } from '@/lib/payments/api';
import { getDispute } from '@/lib/payments/disputes';

export const GET = apiRoute(getDisputeOperation, ({ db, merchantId, params }) => getDispute(db, merchantId, params.disputeId));
