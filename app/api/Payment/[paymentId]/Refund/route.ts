import { apiRoute, phasedApiRoute } from '@/lib/server/http/api-route';
import { listRefundsOperation, refundPaymentOperation } from '@/lib/payments/api';
import { listRefunds, refundPayment } from '@/lib/payments/refunds';

export const GET = apiRoute(listRefundsOperation, async ({ db, merchantId, params }) => ({
  data: await listRefunds(db, merchantId, params.paymentId),
}));

export const POST = phasedApiRoute(refundPaymentOperation, ({ phases, merchantId, params, body, attempt }) =>
  refundPayment(phases, merchantId, params.paymentId, body, attempt),
);
