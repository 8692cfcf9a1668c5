/** Whether PostgreSQL refused a write for a unique constraint (23505), also when drizzle wrapped the error. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/** PostgreSQL's SQLSTATE of a failed statement (`22021`, `23505`…), also when drizzle wrapped the error. */
export function sqlStateOf(error: unknown): string | undefined {
  for (const candidate of [error, (error as { cause?: unknown } | undefined)?.cause]) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !SOCKET_ERROR.test(code)) return code;
  }
  return undefined;
}

/** Node's socket errors (ECONNREFUSED, ECONNRESET, EPIPE…), not its programming errors (ERR_…). */
const SOCKET_ERROR = /^E(?!RR_)[A-Z]+$/;

/**
 * SQLSTATE classes that say nothing about the statement's data: connection exception (08),
 * transaction rollback (40: serialization failure, deadlock), insufficient resources (53),
 * operator intervention (57: shutdown, cancel), system error (58).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);

/**
 * Whether a statement failed because the database could not be reached or could not run it just
 * now (so the same statement may succeed later), rather than because of what it was asked to
 * write (a NUL byte, a constraint, a value too large: it would fail again).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state) return UNAVAILABLE_CLASSES.has(state.slice(0, 2));
  for (const candidate of [error, (error as { cause?: unknown } | undefined)?.cause]) {
    const { code, message } = (candidate ?? {}) as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && SOCKET_ERROR.test(code)) return true;
    // pg's own errors for a lost or unobtainable connection carry no code.
    if (typeof message === 'string' && /connection|terminated|timeout|not queryable/i.test(message)) return true;
  }
  return false;
}
