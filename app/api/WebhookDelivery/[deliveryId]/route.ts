import { apiRoute } from '@/lib/server/http/api-route';
import { getWebhookDeliveryOperation } from '@/lib/webhooks/api';
import { getWebhookDelivery } from '@/lib/webhooks/deliveries';

export const GET = apiRoute(getWebhookDeliveryOperation, ({ db, merchantId, params }) => getWebhookDelivery(db, merchantId, params.deliveryId));
