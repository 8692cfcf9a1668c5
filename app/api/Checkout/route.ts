import { apiRoute } from '@/lib/http/api-route';
import { createCheckoutOperation } from '@/lib/checkout/api';
import { completeCheckout } from '@/lib/checkout/checkouts';
import { checkoutAnswer } from '@/lib/checkout/answer';

export const POST = apiRoute(createCheckoutOperation, async ({ db, merchantId, body, requestId }) =>
  checkoutAnswer(await completeCheckout(db, merchantId, body), requestId),
);
