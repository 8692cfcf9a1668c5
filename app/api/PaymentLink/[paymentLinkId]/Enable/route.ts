import { apiRoute } from '@/lib/server/http/api-route';
import { enablePaymentLinkOperation } from '@/lib/payment-links/api';
import { transitionPaymentLink } from '@/lib/payment-links/payment-links';

export const POST = apiRoute(enablePaymentLinkOperation, ({ db, merchantId, params }) => transitionPaymentLink(db, merchantId, params.paymentLinkId, 'enable'));
