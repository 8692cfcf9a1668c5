import { z } from 'zod';
import { normalizeCurrency } from '../money/currencies';

export const INT32_MAX = 2_147_483_647;

/** A non-negative amount in minor units that fits the spec's int32. */
export const MinorAmount = z.int().min(0).max(INT32_MAX);

/** A usage feature (meter) key: `api_calls`, `messages`, `tokens.gpt-4`. */
export const FeatureKey = z.string().regex(/^[a-z0-9][a-z0-9_.:-]{0,63}$/, 'Lower-case letters, digits and _ . : - (at most 64).');

export const Int32 = z
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX);

export const PositiveInt32 = z.int().min(1).max(INT32_MAX);

export const Currency = z
  .string()
  .length(3)
  .transform((code, ctx) => {
    const normalized = normalizeCurrency(code);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message: `Unknown currency '${code}'; use an ISO 4217 code.` });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ description: 'ISO 4217 currency code, case-insensitive (returned upper case).', example: 'USD' });

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** Flat key/value strings, as the big processors allow: at most 50 keys of 40 chars, values of 500. */
export const Metadata = z
  .record(z.string().min(1).max(METADATA_LIMITS.keyLength), z.string().max(METADATA_LIMITS.valueLength))
  .refine((value) => Object.keys(value).length <= METADATA_LIMITS.keys, {
    message: `At most ${METADATA_LIMITS.keys} keys.`,
  })
  .meta({ description: 'Flat object of string values (≤50 keys, key ≤40 chars, value ≤500 chars).' });

export const Email = z.email().max(320);

/** An ISO 8601 date-time with offset, between `from` and `to` (inclusive), parsed to a Date. */
export function dateTimeBetween(from: string, to: string) {
  const message = `Must be between ${from} and ${to}.`;
  return z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .pipe(z.date().min(new Date(from), { message }).max(new Date(to), { message }));
}

/** Any date-time input: a range every date computed from it stays storable and printable. */
export const DateTime = dateTimeBetween('1970-01-01T00:00:00Z', '9000-01-01T00:00:00Z');

export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC timestamp' });

export function idParam<TName extends string>(name: TName, prefix: string) {
  return z.strictObject({
    [name]: z
      .string()
      .min(1)
      .max(64)
      .meta({ example: `${prefix}_01J9Z3Y0M2Q8R5T7V9W1X3Y5Z7` }),
  } as {
    [K in TName]: z.ZodString;
  });
}

/** A boolean query-string filter: `true` or `false`. */
export const BooleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');
