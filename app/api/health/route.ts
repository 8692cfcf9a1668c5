import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { publicRoute } from '@/lib/server/http/public-route';
import { jsonResponse } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

/** Liveness and database reachability, for load balancers and the launcher. */
export const GET = publicRoute(async () => {
  await getDb().execute(sql`select 1`);
  return jsonResponse(200, JSON.stringify({ status: 'ok' }), {});
});
