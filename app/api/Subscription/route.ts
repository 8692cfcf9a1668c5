import { apiRoute } from '@/lib/http/api-route';
import { respond } from '@/lib/http/respond';
import { createSubscriptionOperation, listSubscriptionsOperation } from '@/lib/subscriptions/api';
import { createSubscription, listSubscriptions } from '@/lib/subscriptions/subscriptions';
import { declinedAnswer } from '@/lib/subscriptions/answer';

export const GET = apiRoute(listSubscriptionsOperation, ({ db, merchantId, query }) => listSubscriptions(db, merchantId, query));

export const POST = apiRoute(createSubscriptionOperation, async ({ db, merchantId, body, apiKeyId, requestId }) => {
  const result = await createSubscription(db, merchantId, body, { actor: `api_key:${apiKeyId}` });
  return result.declined ? declinedAnswer(result, requestId) : respond(201, result.subscription);
});
