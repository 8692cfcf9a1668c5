/**
 * Errors that say the database cannot be reached right now (refused or dropped connections, a
 * server shutting down or starting), not that a statement failed: the answer is 503, and the
 * same request may succeed in a moment.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection_exception class.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  // node-postgres, when the server closes the connection under a query.
  if (typeof message === 'string' && message.startsWith('Connection terminated')) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
