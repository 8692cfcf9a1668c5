import { apiRoute } from '@/lib/server/http/api-route';
import { getWebhookEventOperation } from '@/lib/webhooks/api';
import { getWebhookEvent } from '@/lib/webhooks/deliveries';

export const GET = apiRoute(getWebhookEventOperation, ({ db, merchantId, params }) => getWebhookEvent(db, merchantId, params.eventId));
