import { apiRoute } from '@/lib/server/http/api-route';
import { deleteWebhookEndpointOperation, getWebhookEndpointOperation, updateWebhookEndpointOperation } from '@/lib/webhooks/api';
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from '@/lib/webhooks/endpoints';

export const GET = apiRoute(getWebhookEndpointOperation, ({ db, merchantId, params }) => getWebhookEndpoint(db, merchantId, params.endpointId));

export const PUT = apiRoute(updateWebhookEndpointOperation, ({ db, merchantId, params, body }) =>
  updateWebhookEndpoint(db, merchantId, params.endpointId, body),
);

export const DELETE = apiRoute(deleteWebhookEndpointOperation, ({ db, merchantId, params }) => deleteWebhookEndpoint(db, merchantId, params.endpointId));
