import { apiRoute, phasedApiRoute } from '@/lib/server/http/api-route';
import { respond } from '@/lib/http/respond';
import { createSubscriptionOperation, listSubscriptionsOperation } from '@/lib/subscriptions/api';
import { listSubscriptions } from '@/lib/subscriptions/queries';
import { createSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { declinedAnswer } from '@/lib/server/http/declined-answers';

export const GET = apiRoute(listSubscriptionsOperation, ({ db, merchantId, query }) => listSubscriptions(db, merchantId, query));

export const POST = phasedApiRoute(
  createSubscriptionOperation,
  ({ phases, merchantId, body, apiKeyId, attempt }) => createSubscriptionInPhases(phases, merchantId, body, { actor: `api_key:${apiKeyId}` }, attempt),
  (result, requestId) => (result.declined ? declinedAnswer(result, requestId) : respond(201, result.subscription)),
);
