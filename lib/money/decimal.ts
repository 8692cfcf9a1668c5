/**
 * Exact decimal amounts of minor units (fractions of a cent, as metered prices need), held as
 * BigInt counts of 10^-12 of a minor unit: no float ever touches money.
 */

/** Digits after the point a decimal amount may carry. */
export const DECIMAL_PLACES = 12;
const SCALE = 10n ** BigInt(DECIMAL_PLACES);

/** A non-negative decimal of at most 12 integer digits and 12 decimals ("0.0004", "12", "2.5"). */
export const DECIMAL_AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,12})?$/;

/** Parses a decimal amount of minor units into units of 10^-12 (throws on anything else). */
export function parseDecimalAmount(text: string): bigint {
  if (!DECIMAL_AMOUNT_PATTERN.test(text)) throw new RangeError(`Not a decimal amount: ${text}`);
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * SCALE + BigInt(fraction.padEnd(DECIMAL_PLACES, '0'));
}

/** Whole minor units as units of 10^-12. */
export function scaledMinor(amount: number | bigint): bigint {
  return BigInt(amount) * SCALE;
}

/** A scaled amount as its shortest exact decimal text ("0.5", "468", "0.0004"). */
export function formatScaled(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(DECIMAL_PLACES, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The one rounding of a line: half up (half away from zero for the non-negative amounts
 * lines have) to a whole minor unit of the currency: 0.5 → 1, 0.4999… → 0, 2.5 → 3.
 */
export function roundHalfUpToMinor(value: bigint): bigint {
  if (value < 0n) return -roundHalfUpToMinor(-value);
  return (value + SCALE / 2n) / SCALE;
}
