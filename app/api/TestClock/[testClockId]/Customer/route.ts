import { apiRoute } from '@/lib/server/http/api-route';
import { attachTestClockCustomerOperation } from '@/lib/subscriptions/api';
import { attachCustomerToTestClock } from '@/lib/subscriptions/test-clocks';

export const POST = apiRoute(attachTestClockCustomerOperation, ({ db, merchantId, params, body }) =>
  attachCustomerToTestClock(db, merchantId, params.testClockId, body.customerId),
);
