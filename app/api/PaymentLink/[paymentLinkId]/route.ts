import { apiRoute } from '@/lib/server/http/api-route';
import { getPaymentLinkOperation, updatePaymentLinkOperation } from '@/lib/payment-links/api';
import { getPaymentLink, updatePaymentLink } from '@/lib/payment-links/payment-links';

export const GET = apiRoute(getPaymentLinkOperation, ({ db, merchantId, params }) => getPaymentLink(db, merchantId, params.paymentLinkId));

export const PUT = apiRoute(updatePaymentLinkOperation, ({ db, merchantId, params, body }) => updatePaymentLink(db, merchantId, params.paymentLinkId, body));
