import canonicalize from 'canonicalize';

/**
 * JSON in its one canonical form (RFC 8785, JCS: object members sorted by UTF-16 code units at
 * every level, numbers and strings as ECMAScript writes them), so the same value always gives
 * the same text: what an Idempotency-Key's body and a usage record are fingerprinted by.
 */
export function canonicalJson(value: unknown): string {
  return canonicalize(value ?? null) as string;
}
