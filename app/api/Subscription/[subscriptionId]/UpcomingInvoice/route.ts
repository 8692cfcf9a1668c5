import { apiRoute } from '@/lib/server/http/api-route';
import { getUpcomingInvoiceOperation } from '@/lib/subscriptions/api';
import { getUpcomingInvoice } from '@/lib/subscriptions/upcoming-invoice';

export const GET = apiRoute(getUpcomingInvoiceOperation, ({ db, merchantId, params }) => getUpcomingInvoice(db, merchantId, params.subscriptionId));
