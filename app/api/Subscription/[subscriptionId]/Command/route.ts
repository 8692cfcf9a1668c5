import { phasedApiRoute } from '@/lib/server/http/api-route';
import { commandSubscriptionOperation } from '@/lib/subscriptions/api';
import { commandSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { declinedAnswer } from '@/lib/server/http/declined-answers';

export const POST = phasedApiRoute(
  commandSubscriptionOperation,
  ({ phases, merchantId, params, body, apiKeyId }) => commandSubscriptionInPhases(phases, merchantId, params.subscriptionId, body, `api_key:${apiKeyId}`),
  (result, requestId) => (result.declined ? declinedAnswer(result, requestId) : { subscription: result.subscription, change: result.change }),
);
