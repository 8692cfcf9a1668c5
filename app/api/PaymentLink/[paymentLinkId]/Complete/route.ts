import { phasedApiRoute } from '@/lib/server/http/api-route';
import { completePaymentLinkOperation } from '@/lib/checkout/api';
import { completePaymentLink } from '@/lib/checkout/complete-payment-link';
import { checkoutAnswer } from '@/lib/server/http/declined-answers';

export const POST = phasedApiRoute(
  completePaymentLinkOperation,
  ({ phases, merchantId, params, body, attempt }) => completePaymentLink(phases, merchantId, params.paymentLinkId, body, attempt),
  checkoutAnswer,
);
