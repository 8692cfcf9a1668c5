/**
 * Text from outside the service (a webhook receiver's answer, a client's or proxy's header, an
 * SMTP server's error, any error message from elsewhere) as PostgreSQL can store it in `text`
 * and `jsonb`: both refuse U+0000 ("invalid byte sequence for encoding UTF8: 0x00", or
 * "unsupported Unicode escape sequence" through JSON), and a lone UTF-16 surrogate, which a
 * JavaScript string can hold, fails on its way into `jsonb` or `json`. Both become U+FFFD, the
 * character that stands for what could not be kept (as a decoder does with invalid UTF-8), so a
 * reader still sees that something was there. Over-long text is cut, never inside a surrogate
 * pair. Input validated at the API edge is refused instead (lib/server/http/route-core.ts); this is for
 * text the service keeps as it came (docs/operations.md, "Text kept from outside").
 */

/** What replaces a character PostgreSQL cannot store. */
export const UNSTORABLE_REPLACEMENT = '\uFFFD';

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without NUL characters or lone surrogates, and at most `maxLength` UTF-16 code units. */
export function storableText(text: string, maxLength?: number): string;
export function storableText(text: string | null | undefined, maxLength?: number): string | null;
export function storableText(text: string | null | undefined, maxLength = Number.POSITIVE_INFINITY): string | null {
  if (text === null || text === undefined) return null;
  let kept = text;
  if (kept.length > maxLength) {
    // A high surrogate whose low half would be cut off goes too.
    const end = isHighSurrogate(kept.charCodeAt(maxLength - 1)) ? maxLength - 1 : maxLength;
    kept = kept.slice(0, Math.max(0, end));
  }
  if (kept.includes('\0')) kept = kept.replaceAll('\0', UNSTORABLE_REPLACEMENT);
  return SURROGATE.test(kept) ? kept.replace(LONE_SURROGATE, UNSTORABLE_REPLACEMENT) : kept;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
