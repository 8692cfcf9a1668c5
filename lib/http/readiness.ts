import { isDatabaseUnavailable } from '../db/availability';
import { ApiError } from '../errors';
import { migrationsApplied } from '../db/migrate';

/**
 * Whether this node should get new requests (`GET /api/health/ready`). The launcher (scripts/start.ts)
 * marks the node draining on SIGTERM; the route runs in Next.js's bundle of the same process, so
 * the mark lives on `globalThis`, like the pool in lib/db/client.ts.
 */
const node = globalThis as unknown as { __paybaseDraining?: boolean };

export function markDraining(): void {
  node.__paybaseDraining = true;
}

export function isDraining(): boolean {
  return node.__paybaseDraining === true;
}

export type NotReadyReason = 'starting' | 'draining' | 'database_unreachable' | 'migrations_pending';

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

const DETAILS: Record<NotReadyReason, string> = {
  starting: 'This node is starting: its database, migrations and pages are not ready yet.',
  draining: 'This node is stopping: it finishes the requests in progress and takes no new ones.',
  database_unreachable: 'The database cannot be reached from this node.',
  migrations_pending: 'The database lacks migrations this release needs: run npm run migrate (or start a web node, which applies them).',
};

/** Not draining, the database answers, and this release's last migration is applied: one query. */
export async function checkReadiness(): Promise<Readiness> {
  if (isDraining()) return notReady('draining');
  let applied: boolean;
  try {
    applied = await migrationsApplied();
  } catch (error) {
    // Not logged: a balancer asks every few seconds, and the requests that need it log already.
    if (!isDatabaseUnavailable(error)) throw error;
    return notReady('database_unreachable');
  }
  if (!applied) return notReady('migrations_pending');
  // A drain that began while the query ran wins: the balancer must stop sending at once.
  return isDraining() ? notReady('draining') : { ready: true };
}

function notReady(reason: NotReadyReason): Readiness {
  return { ready: false, reason };
}

/** The 503 of a node that should get no requests: readiness's answer, and every answer while the node starts. */
export function notReadyError(reason: NotReadyReason): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', DETAILS[reason], { retryAfterSeconds: 5, extra: { reason } });
}
