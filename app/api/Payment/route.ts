import { apiRoute } from '@/lib/server/http/api-route';
import { listPaymentsOperation } from '@/lib/payments/api';
import { listPayments } from '@/lib/payments/payments';

export const GET = apiRoute(listPaymentsOperation, ({ db, merchantId, query }) => listPayments(db, merchantId, query));
