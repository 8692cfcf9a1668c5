import { apiRoute } from '@/lib/server/http/api-route';
import { respond } from '@/lib/http/respond';
import { listUsageOperation, recordUsageOperation } from '@/lib/usage/api';
import { recordUsage } from '@/lib/usage/usage-records';
import { listUsage } from '@/lib/usage/usage-reports';

export const GET = apiRoute(listUsageOperation, ({ db, merchantId, query }) => listUsage(db, merchantId, query));

export const POST = apiRoute(recordUsageOperation, async ({ db, merchantId, body }) => {
  const { created, usage, entitlement } = await recordUsage(db, merchantId, body);
  return respond(created ? 201 : 200, { usage, entitlement });
});
