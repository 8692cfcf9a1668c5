import { isTransientDatabaseError } from './errors';

/**
 * Writes `rows` in batches with `write` (one statement, or one transaction, per call) so that a
 * row PostgreSQL refuses for what it holds (a NUL byte, a value too large, a constraint) costs
 * only itself: a refused batch is halved until each refused row is alone, which costs about two
 * statements per halving, and `refused(row, error)` decides what becomes of that row (write it
 * another way, or drop it and say so). Every other row is written as it was, whatever tenant
 * it belongs to.
 *
 * When the database cannot be reached (`isTransientDatabaseError`), nothing more is tried: the rows
 * not written yet are returned, for the caller to keep and try again. `refused` may throw only
 * that way too.
 */
export async function writeIsolating<T>(rows: T[], write: (rows: T[]) => Promise<void>, refused: (row: T, error: unknown) => Promise<void>): Promise<T[]> {
  const unwritten: T[] = [];
  const chunks = [rows];
  for (let chunk = chunks.pop(); chunk; chunk = chunks.pop()) {
    if (unwritten.length > 0 || chunk.length === 0) {
      unwritten.push(...chunk);
      continue;
    }
    try {
      await write(chunk);
    } catch (error) {
      if (isTransientDatabaseError(error)) unwritten.push(...chunk);
      else if (chunk.length > 1) {
        const half = Math.ceil(chunk.length / 2);
        chunks.push(chunk.slice(half), chunk.slice(0, half));
      } else {
        await refused(chunk[0]!, error).catch((again: unknown) => {
          if (!isTransientDatabaseError(again)) throw again;
          unwritten.push(chunk[0]!);
        });
      }
    }
  }
  return unwritten;
}
