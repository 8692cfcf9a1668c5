import { apiRoute } from '@/lib/http/api-route';
import { advanceTestClockOperation } from '@/lib/subscriptions/api';
import { advanceTestClock } from '@/lib/subscriptions/test-clocks';

export const POST = apiRoute(advanceTestClockOperation, ({ db, merchantId, params, body }) => advanceTestClock(db, merchantId, params.testClockId, body));
