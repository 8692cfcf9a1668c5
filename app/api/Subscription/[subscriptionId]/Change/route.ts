import { apiRoute } from '@/lib/server/http/api-route';
import { listSubscriptionChangesOperation } from '@/lib/subscriptions/api';
import { listSubscriptionChanges } from '@/lib/subscriptions/queries';

export const GET = apiRoute(listSubscriptionChangesOperation, ({ db, merchantId, params, query }) =>
  listSubscriptionChanges(db, merchantId, params.subscriptionId, query),
);
