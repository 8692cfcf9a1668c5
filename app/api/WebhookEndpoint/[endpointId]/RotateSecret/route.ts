import { apiRoute } from '@/lib/server/http/api-route';
import { rotateWebhookEndpointSecretOperation } from '@/lib/webhooks/api';
import { rotateWebhookEndpointSecret } from '@/lib/webhooks/endpoints';

export const POST = apiRoute(rotateWebhookEndpointSecretOperation, ({ db, merchantId, params }) =>
  rotateWebhookEndpointSecret(db, merchantId, params.endpointId),
);
