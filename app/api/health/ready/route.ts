import { publicRoute } from '@/lib/server/http/public-route';
import { checkReadiness, notReadyError } from '@/lib/http/readiness';
import { jsonResponse } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

/**
 * Readiness, for load balancers: 200 while this node should get requests; 503 with the reason
 * (`draining`, `database_unreachable`, `migrations_pending`; `starting` is answered by the launcher) otherwise (docs/operations.md).
 */
export const GET = publicRoute(async () => {
  const readiness = await checkReadiness();
  if (!readiness.ready) throw notReadyError(readiness.reason);
  return jsonResponse(200, JSON.stringify({ status: 'ready' }), {});
});
