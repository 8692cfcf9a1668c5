import { apiRoute } from '@/lib/http/api-route';
import { listSubscriptionChangesOperation } from '@/lib/subscriptions/api';
import { listSubscriptionChanges } from '@/lib/subscriptions/subscriptions';

export const GET = apiRoute(listSubscriptionChangesOperation, ({ db, merchantId, params, query }) =>
  listSubscriptionChanges(db, merchantId, params.subscriptionId, query),
);
