import { apiRoute } from '@/lib/http/api-route';
import { completePaymentLinkOperation } from '@/lib/payment-links/api';
import { completePaymentLink } from '@/lib/checkout/complete-payment-link';
import { checkoutAnswer } from '@/lib/checkout/answer';

export const POST = apiRoute(completePaymentLinkOperation, async ({ db, merchantId, params, body, requestId }) =>
  checkoutAnswer(await completePaymentLink(db, merchantId, params.paymentLinkId, body), requestId),
);
