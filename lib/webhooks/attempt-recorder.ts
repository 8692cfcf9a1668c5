import type { Db } from '../db/client';
import { isTransientDatabaseError } from '../db/errors';
import { writeIsolating } from '../db/isolating-writes';
import { log } from '../log';
import { recordAttemptResults, withoutAnswer, type AttemptResult } from './record';

/** Finished attempts are recorded when this many are waiting, or FLUSH_DELAY_MS after the first. */
const FLUSH_BATCH = 500;
const FLUSH_DELAY_MS = 5;
/** While the database cannot be written: how often to try again, and to say so in the log. */
const RETRY_DELAY_MS = 1_000;
const LOG_AGAIN_MS = 60_000;

export interface AttemptRecorder {
  /** A finished attempt: recorded with the others that finish about the same time. */
  add(result: AttemptResult): void;
  /** Records what is waiting (after a flush already under way). */
  flush(): Promise<void>;
  /** Flushes up to `tries` times while anything waits, then stops its timers (the dispatcher is stopping). */
  close(tries: number): Promise<void>;
  /** While the database cannot be written, the dispatcher claims nothing: what it holds must not grow. */
  readonly failing: boolean;
}

/**
 * The bookkeeping half of a dispatcher (docs/webhooks.md, "Recording"): finished attempts wait a
 * few milliseconds and are recorded in batches, never holding up the sending of others. A batch
 * PostgreSQL refuses is split until the attempt at fault is found (`recordIsolating`), so one
 * receiver's answer can never stop the recording of anybody else's. `onSettled` is told how many
 * attempts left memory (recorded, or given up) and the earliest retry the flush scheduled.
 */
export function createAttemptRecorder(options: {
  db: Db;
  dispatcherId: string;
  onSettled(settled: number, earliestRetryAt: Date | undefined): void;
}): AttemptRecorder {
  const { db, dispatcherId } = options;
  let finished: AttemptResult[] = [];
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failingSince: number | undefined;
  let loggedAt = 0;

  function schedule(delayMs: number) {
    timer ??= setTimeout(() => void flush(), delayMs);
  }

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (flushing) return flushing.then(() => (finished.length > 0 ? flush() : undefined));
    const batch = finished;
    finished = [];
    if (batch.length === 0) return;
    flushing = (async () => {
      const { unrecorded, earliestRetryAt } = await recordIsolating(db, dispatcherId, batch);
      if (unrecorded.length > 0) {
        // Kept for the next try (their leases still stand, or run out and the attempts are sent again).
        finished = unrecorded.concat(finished);
        const at = Date.now();
        failingSince ??= at;
        if (at - loggedAt >= LOG_AGAIN_MS) {
          loggedAt = at;
          log.error({ dispatcherId, waiting: finished.length, failingForMs: at - failingSince }, 'cannot record webhook attempts: the database is unavailable');
        }
      } else if (failingSince !== undefined) {
        log.warn({ dispatcherId, failedForMs: Date.now() - failingSince }, 'recording webhook attempts again');
        failingSince = undefined;
        loggedAt = 0;
      }
      options.onSettled(batch.length - unrecorded.length, earliestRetryAt);
    })();
    await flushing;
    flushing = undefined;
    if (finished.length > 0) schedule(failingSince === undefined ? FLUSH_DELAY_MS : RETRY_DELAY_MS);
  }

  return {
    add(result) {
      finished.push(result);
      if (finished.length >= FLUSH_BATCH && failingSince === undefined) void flush();
      else schedule(FLUSH_DELAY_MS);
    },
    flush,
    async close(tries) {
      for (let i = 0; i < tries && (finished.length > 0 || flushing); i++) await flush();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    get failing() {
      return failingSince !== undefined;
    },
  };
}

/**
 * Records `batch`, one refused attempt never costing the others (lib/db/isolating-writes.ts): an
 * attempt PostgreSQL refuses alone is recorded without the receiver's answer, and if even that is
 * refused it is given up (logged: its lease runs out, it is sent again, and the claim writes the
 * lost attempt into the history). When the database cannot be reached, what is not recorded yet
 * comes back in `unrecorded`, to be tried again.
 */
export async function recordIsolating(db: Db, dispatcherId: string, batch: AttemptResult[]): Promise<{ unrecorded: AttemptResult[]; earliestRetryAt?: Date }> {
  let earliest = Infinity;
  const record = async (results: AttemptResult[]) => {
    const { earliestRetryAt } = await recordAttemptResults(db, dispatcherId, results);
    if (earliestRetryAt) earliest = Math.min(earliest, earliestRetryAt.getTime());
  };
  const unrecorded = await writeIsolating(batch, record, async (result, refusal) => {
    const deliveryId = result.delivery.id;
    log.warn({ err: refusal, dispatcherId, deliveryId }, 'a webhook attempt could not be recorded as it was; recording it without the answer');
    try {
      await record([withoutAnswer(result, refusal)]);
    } catch (error) {
      if (isTransientDatabaseError(error)) throw error;
      log.error({ err: error, dispatcherId, deliveryId }, 'a webhook attempt could not be recorded; it is sent again when its lease runs out');
    }
  });
  return { unrecorded, earliestRetryAt: earliest === Infinity ? undefined : new Date(earliest) };
}
