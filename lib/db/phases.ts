import { AsyncLocalStorage } from 'node:async_hooks';
import type { SQL } from 'drizzle-orm';
import type { Database, Db } from './client';

/**
 * What a state change that calls the payment processor needs: the pool to open its own
 * transactions with (phase 1 commits before the processor is called, phase 3 after), and the
 * hook its last transaction calls with the result, so the API's idempotency answer commits in
 * that same transaction (lib/server/http/api-route.ts). Outside the API the hook does nothing.
 */
export interface Phases {
  /** Its writes run in transactions (`db.transaction`): a committed one is what `watchCommits` sees. */
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

/** Whether a phased state change has committed anything yet (its phase 1: money may move). */
export interface CommitWatch {
  committed: boolean;
}

const commitWatches = new AsyncLocalStorage<CommitWatch>();
const watchingDatabases = new WeakMap<Database, Database>();

/**
 * `db` for a phased state change: the same pool, except that each transaction it commits marks
 * the `CommitWatch` the change runs under (`watchCommits`). One per pool, so statements
 * prepared per database handle (`preparedPerDatabase`) are prepared once.
 */
export function watchingCommits(db: Database): Database {
  let watching = watchingDatabases.get(db);
  if (!watching) {
    const transaction: Database['transaction'] = async (work, options) => {
      const result = await db.transaction(work, options);
      const watch = commitWatches.getStore();
      if (watch) watch.committed = true;
      return result;
    };
    watching = Object.create(db, { transaction: { value: transaction } }) as Database;
    watchingDatabases.set(db, watching);
  }
  return watching;
}

/** Runs `work`, noting in `watch` when a transaction of `watchingCommits` commits during it. */
export function watchCommits<T>(watch: CommitWatch, work: () => Promise<T>): Promise<T> {
  return commitWatches.run(watch, work);
}
