import { apiRoute } from '@/lib/server/http/api-route';
import { testWebhookEndpointOperation } from '@/lib/webhooks/api';
import { sendTestWebhookEvent } from '@/lib/webhooks/test-events';

export const POST = apiRoute(testWebhookEndpointOperation, ({ db, merchantId, params, body }) => sendTestWebhookEvent(db, merchantId, params.endpointId, body));
