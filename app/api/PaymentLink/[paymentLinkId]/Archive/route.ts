import { apiRoute } from '@/lib/server/http/api-route';
import { archivePaymentLinkOperation } from '@/lib/payment-links/api';
import { transitionPaymentLink } from '@/lib/payment-links/payment-links';

export const POST = apiRoute(archivePaymentLinkOperation, ({ db, merchantId, params }) =>
  transitionPaymentLink(db, merchantId, params.paymentLinkId, 'archive'),
);
