import { phasedApiRoute } from '@/lib/server/http/api-route';
import { createCheckoutOperation } from '@/lib/checkout/api';
import { completeCheckout } from '@/lib/checkout/checkouts';
import { checkoutAnswer } from '@/lib/server/http/declined-answers';

export const POST = phasedApiRoute(
  createCheckoutOperation,
  ({ phases, merchantId, body, attempt }) => completeCheckout(phases, merchantId, body, { attempt }),
  checkoutAnswer,
);
