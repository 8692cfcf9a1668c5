import { phasedApiRoute } from '@/lib/server/http/api-route';
import { advanceTestClockOperation } from '@/lib/subscriptions/api';
import { advanceTestClock } from '@/lib/subscriptions/test-clocks';

export const POST = phasedApiRoute(advanceTestClockOperation, ({ phases, merchantId, params, body, attempt }) =>
  advanceTestClock(phases, merchantId, params.testClockId, body, attempt),
);
