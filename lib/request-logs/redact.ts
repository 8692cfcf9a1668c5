import { storableText } from '../stored-text';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/input-checks';

/** The most of a body the log keeps (after redaction), in characters. */
export const BODY_LIMIT = 4096;

const REDACTED = '[redacted]';
// Field names whose values are secrets or card data, whatever they hold.
const SECRET_KEY =
  /(card.?number|^number$|^pan$|cvc|cvv|token|password|secret|authorization|api.?key|^exp(iry|_month|_year|Month|Year)?$|recovery.?code|^otp$)/i;
// Anything that still looks like a card number, an API key or a signing secret.
const SECRET_TEXT = [/\b(?:\d[ -]?){12,18}\d\b/g, /\b(sk|whsec|pk|rk)_[A-Za-z0-9_-]{8,}/g, /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g];

/** Secret-looking text blanked, and what PostgreSQL cannot store replaced (lib/stored-text.ts). */
function scrubText(text: string): string {
  return storableText(SECRET_TEXT.reduce((out, pattern) => out.replace(pattern, REDACTED), text));
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), SECRET_KEY.test(key) ? REDACTED : scrub(item, depth + 1)]));
}

/**
 * A body as the request log may keep it: JSON with secret fields replaced, card-number-like
 * digit runs, API keys, signing secrets and JWTs blanked in any text, then made storable and capped.
 */
export function redactBody(body: string | null | undefined): string | null {
  if (!body) return null;
  let text: string;
  try {
    // A body the API refused for its nesting is not parsed here either (it would cost the same).
    text = nestsDeeperThan(body, MAX_JSON_DEPTH) ? scrubText(body) : JSON.stringify(scrub(JSON.parse(body)));
  } catch {
    text = scrubText(body);
  }
  const kept = storableText(text, BODY_LIMIT);
  return text.length > BODY_LIMIT ? `${kept}… [truncated]` : kept;
}

/** A JSON value with secret-named fields and secret-looking text replaced (the audit log's metadata uses it too). */
export function redactValue<T>(value: T): T {
  return scrub(value) as T;
}
