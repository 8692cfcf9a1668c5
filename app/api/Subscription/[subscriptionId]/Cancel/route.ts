import { apiRoute } from '@/lib/server/http/api-route';
import { cancelSubscriptionOperation } from '@/lib/subscriptions/api';
import { cancelSubscription } from '@/lib/subscriptions/commands';

export const POST = apiRoute(cancelSubscriptionOperation, ({ db, merchantId, params, body, apiKeyId }) =>
  cancelSubscription(db, merchantId, params.subscriptionId, body.immediate ?? false, `api_key:${apiKeyId}`),
);
