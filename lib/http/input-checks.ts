import { ApiError } from '../errors';

/**
 * How deeply a JSON body may nest objects and arrays (docs/api.md, "Limits"). The deepest body
 * the API documents is a few levels (a usage batch's record's `properties`); 32 leaves free-form
 * `properties` room while keeping every later walk over the value (validation, canonical JSON
 * for the Idempotency-Key, PostgreSQL's jsonb parser) far from any stack limit.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, read in one pass before it is
 * parsed: a 1 MB body of `[` is refused at its 33rd character instead of costing a parse of
 * half a million levels. Brackets inside strings do not count. On text that is not JSON the
 * answer may be anything: such text is refused by the parse that follows.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The 400 for a body nested deeper than MAX_JSON_DEPTH. */
export function tooDeeplyNested(): ApiError {
  return new ApiError('VALIDATION_FAILED', `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`, {
    errors: [{ path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels.` }],
  });
}

/** Half of a UTF-16 surrogate pair standing alone (`"\ud800"` in JSON): a pair is one code point, not a Surrogate. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;
const unstorable = (text: string) => text.includes('\0') || LONE_SURROGATE.test(text);

export interface UnstorableText {
  /** The field's keys from the top, array positions as numbers' text. */
  path: string[];
  kind: 'nul' | 'lone-surrogate';
}

/**
 * The first string, value or key, that PostgreSQL cannot store: U+0000 (not allowed in `text`
 * or `jsonb`) or a lone surrogate (`jsonb` refuses the escape; `text` would get U+FFFD in its
 * place, silently). Walks with its own stack, so no nesting can overflow the call stack, and
 * builds a path only for the string it reports.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  type Visit = { value: unknown; key: string; parent: Visit | undefined };
  const pending: Visit[] = [{ value, key: '', parent: undefined }];
  const pathOf = (visit: Visit, last?: string): string[] => {
    const path = last === undefined ? [] : [last];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === 'string') {
      if (unstorable(current)) return { path: pathOf(visit), kind: kindOf(current) };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      if (unstorable(key)) return { path: pathOf(visit, printableKey(key)), kind: kindOf(key) };
      pending.push({ value: item, key, parent: visit });
    }
  }
  return undefined;
}

function kindOf(text: string): UnstorableText['kind'] {
  return text.includes('\0') ? 'nul' : 'lone-surrogate';
}

/** A key as a path may show it: what cannot be stored or printed is written as its `\u` escape. */
function printableKey(key: string): string {
  return key.replaceAll('\0', '\\u0000').replace(LONE_SURROGATES, (half) => `\\u${half.charCodeAt(0).toString(16)}`);
}

const PROBLEMS: Record<UnstorableText['kind'], string> = {
  nul: 'Contains a NUL character (\\u0000), which is not allowed.',
  'lone-surrogate': 'Contains a lone UTF-16 surrogate (e.g. \\ud800 without its pair), which is not text.',
};

/**
 * Throws a 400 naming the first field, in `location` (body, query, path), whose key or value
 * holds U+0000 or a lone surrogate: PostgreSQL can store neither, whatever the field.
 */
export function refuseUnstorableText(value: unknown, location: string): void {
  const found = findUnstorableText(value);
  if (!found) return;
  const fieldPath = found.path.length ? found.path.join('.') : location;
  const message = PROBLEMS[found.kind];
  throw new ApiError('VALIDATION_FAILED', `Invalid ${location}: ${fieldPath}: ${message}`, { errors: [{ path: fieldPath, message }] });
}
