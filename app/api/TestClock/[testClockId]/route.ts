import { apiRoute } from '@/lib/server/http/api-route';
import { getTestClockOperation } from '@/lib/subscriptions/api';
import { getTestClock } from '@/lib/subscriptions/test-clocks';

export const GET = apiRoute(getTestClockOperation, ({ db, merchantId, params }) => getTestClock(db, merchantId, params.testClockId));
