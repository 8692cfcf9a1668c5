import { apiRoute } from '@/lib/server/http/api-route';
import { getPaymentOperation } from '@/lib/payments/api';
import { getPayment } from '@/lib/payments/payments';

export const GET = apiRoute(getPaymentOperation, ({ db, merchantId, params }) => getPayment(db, merchantId, params.paymentId));
