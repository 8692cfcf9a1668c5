import { apiRoute } from '@/lib/server/http/api-route';
import { disablePaymentLinkOperation } from '@/lib/payment-links/api';
import { transitionPaymentLink } from '@/lib/payment-links/payment-links';

export const POST = apiRoute(disablePaymentLinkOperation, ({ db, merchantId, params }) =>
  transitionPaymentLink(db, merchantId, params.paymentLinkId, 'disable'),
);
