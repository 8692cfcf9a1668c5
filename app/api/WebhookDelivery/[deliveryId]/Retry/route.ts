import { apiRoute } from '@/lib/server/http/api-route';
import { retryWebhookDeliveryOperation } from '@/lib/webhooks/api';
import { retryWebhookDelivery } from '@/lib/webhooks/deliveries';

export const POST = apiRoute(retryWebhookDeliveryOperation, ({ db, merchantId, params }) => retryWebhookDelivery(db, merchantId, params.deliveryId));
