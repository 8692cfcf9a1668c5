import { apiRoute } from '@/lib/http/api-route';
import { commandSubscriptionOperation } from '@/lib/subscriptions/api';
import { commandSubscription } from '@/lib/subscriptions/subscriptions';
import { declinedAnswer } from '@/lib/subscriptions/answer';

export const POST = apiRoute(commandSubscriptionOperation, async ({ db, merchantId, params, body, apiKeyId, requestId }) => {
  const result = await commandSubscription(db, merchantId, params.subscriptionId, body, `api_key:${apiKeyId}`);
  return result.declined ? declinedAnswer(result, requestId) : { subscription: result.subscription, change: result.change };
});
