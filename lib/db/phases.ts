import type { Database, Db } from './client';

/**
 * What a state change that calls the payment processor needs: the pool to open its own
 * transactions with (phase 1 commits before the processor is called, phase 3 after), and the
 * hook its last transaction calls with the result, so the API's idempotency answer commits in
 * that same transaction (lib/http/api-route.ts). Outside the API the hook does nothing.
 */
export interface Phases {
  db: Database;
  answer(tx: Db, result: unknown): Promise<void>;
}

export function plainPhases(db: Database): Phases {
  return { db, answer: async () => {} };
}
