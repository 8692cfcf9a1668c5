import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActorKind } from '../db/schema';

export interface AuditActor {
  kind: AuditActorKind;
  id?: string;
  /** Email (seller user), name (admin) or key prefix, as the audit log shows it. */
  label?: string;
}

/** Where the current request came from and who is acting: what every audit entry records. */
export interface RequestContext {
  requestId: string;
  ip: string;
  actor?: AuditActor;
}

// One store per process, shared by every bundle that includes this module (Next.js may load it
// more than once, like the pool in ../db/client.ts).
const globalForContext = globalThis as unknown as { __paybaseRequestContext?: AsyncLocalStorage<RequestContext> };
globalForContext.__paybaseRequestContext ??= new AsyncLocalStorage<RequestContext>();
const store = globalForContext.__paybaseRequestContext;

/**
 * Runs one request's work (an API call, a console server action) with its request id and client
 * address, so domain functions can write audit entries without every signature carrying them.
 */
export function runInRequestContext<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
  return store.run({ ...context }, work);
}

export function currentRequestContext(): RequestContext | undefined {
  return store.getStore();
}

/** Records who the request's credential belongs to, once it has been checked. Outside a request: nothing. */
export function identifyActor(actor: AuditActor): void {
  const context = store.getStore();
  if (context) context.actor = actor;
}
