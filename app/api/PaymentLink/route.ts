import { apiRoute } from '@/lib/server/http/api-route';
import { createPaymentLinkOperation, listPaymentLinksOperation } from '@/lib/payment-links/api';
import { createPaymentLink, listPaymentLinks } from '@/lib/payment-links/payment-links';

export const GET = apiRoute(listPaymentLinksOperation, ({ db, merchantId, query }) => listPaymentLinks(db, merchantId, query));

export const POST = apiRoute(createPaymentLinkOperation, ({ db, merchantId, body }) => createPaymentLink(db, merchantId, body));
