import { apiRoute } from '@/lib/server/http/api-route';
import { getSubscriptionOperation } from '@/lib/subscriptions/api';
import { getSubscriptionDetail } from '@/lib/subscriptions/queries';

export const GET = apiRoute(getSubscriptionOperation, ({ db, merchantId, params }) => getSubscriptionDetail(db, merchantId, params.subscriptionId));
