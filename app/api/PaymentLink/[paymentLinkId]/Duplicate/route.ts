import { apiRoute } from '@/lib/server/http/api-route';
import { duplicatePaymentLinkOperation } from '@/lib/payment-links/api';
import { duplicatePaymentLink } from '@/lib/payment-links/payment-links';

export const POST = apiRoute(duplicatePaymentLinkOperation, ({ db, merchantId, params }) => duplicatePaymentLink(db, merchantId, params.paymentLinkId));
