import { apiRoute } from '@/lib/server/http/api-route';
import { previewSubscriptionOperation } from '@/lib/subscriptions/api';
import { previewPriceChange } from '@/lib/subscriptions/price-change';

export const POST = apiRoute(previewSubscriptionOperation, ({ db, merchantId, params, body }) =>
  previewPriceChange(db, merchantId, params.subscriptionId, body.priceId),
);
