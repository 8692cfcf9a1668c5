import { apiRoute } from '@/lib/server/http/api-route';
import { retryFailedWebhookDeliveriesOperation } from '@/lib/webhooks/api';
import { retryFailedWebhookDeliveries } from '@/lib/webhooks/deliveries';

export const POST = apiRoute(retryFailedWebhookDeliveriesOperation, ({ db, merchantId, params, body }) =>
  retryFailedWebhookDeliveries(db, merchantId, params.endpointId, body),
);
