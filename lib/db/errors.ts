/** Whether PostgreSQL refused a write for a unique constraint (23505), also when drizzle wrapped the error. */
export function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | undefined)?.cause];
  return candidates.some((e) => (e as { code?: unknown } | undefined)?.code === '23505');
}
