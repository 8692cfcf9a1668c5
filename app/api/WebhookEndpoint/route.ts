import { apiRoute } from '@/lib/server/http/api-route';
import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from '@/lib/webhooks/api';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/endpoints';

export const GET = apiRoute(listWebhookEndpointsOperation, ({ db, merchantId, query }) => listWebhookEndpoints(db, merchantId, query));

export const POST = apiRoute(createWebhookEndpointOperation, ({ db, merchantId, body }) => createWebhookEndpoint(db, merchantId, body));
