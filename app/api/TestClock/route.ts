import { apiRoute } from '@/lib/server/http/api-route';
import { respond } from '@/lib/http/respond';
import { createTestClockOperation, listTestClocksOperation } from '@/lib/subscriptions/api';
import { createTestClock, listTestClocks } from '@/lib/subscriptions/test-clocks';

export const GET = apiRoute(listTestClocksOperation, ({ db, merchantId, query }) => listTestClocks(db, merchantId, query));
export const POST = apiRoute(createTestClockOperation, async ({ db, merchantId, body }) => respond(201, await createTestClock(db, merchantId, body)));
