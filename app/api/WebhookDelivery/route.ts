import { apiRoute } from '@/lib/server/http/api-route';
import { listWebhookDeliveriesOperation } from '@/lib/webhooks/api';
import { listWebhookDeliveries } from '@/lib/webhooks/deliveries';

export const GET = apiRoute(listWebhookDeliveriesOperation, ({ db, merchantId, query }) => listWebhookDeliveries(db, merchantId, query));
