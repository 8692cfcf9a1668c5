import { apiRoute } from '@/lib/server/http/api-route';
import { listWebhookEventsOperation } from '@/lib/webhooks/api';
import { listWebhookEvents } from '@/lib/webhooks/deliveries';

export const GET = apiRoute(listWebhookEventsOperation, ({ db, merchantId, query }) => listWebhookEvents(db, merchantId, query));
