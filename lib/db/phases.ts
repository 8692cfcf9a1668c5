import type { SQL } from 'drizzle-orm';
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
  /**
   * The same answer as a write for the last transaction's own statement (a round trip fewer):
   * undefined when there is nothing to store; else run `statement` in it as a CTE and pass
   * `confirm` the number of rows it returned (it throws as `answer` would, rolling it all back).
   * `onlyIf` is a condition the write adds to its own (e.g. one that reads another CTE, so that
   * CTE runs first).
   */
  answerWrite?(tx: Db, result: unknown, onlyIf?: SQL): AnswerWrite | undefined;
}

export interface AnswerWrite {
  /** An `update … returning` that returns one row when the answer was stored. */
  statement: SQL;
  confirm(storedRows: number): void;
}

export function plainPhases(db: Database): Phases {
  return { db, answer: async () => {} };
}
