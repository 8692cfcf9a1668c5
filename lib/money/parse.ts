import { currencyExponent } from './currencies';

/**
 * Reads an amount typed by a person ("12.5", "1,299.00", "500") as integer minor units of the
 * currency, by string arithmetic (no float). Undefined when it is not a valid amount for it.
 */
export function parseMoney(text: string, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  const cleaned = text.replaceAll(',', '').replaceAll(' ', '').trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) return undefined;
  const minor = Number(`${match[1]}${fraction.padEnd(exponent, '0')}`);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/**
 * The inverse of parseMoney for form inputs: integer minor units as plain decimal text in the
 * currency's own decimals ("1234" USD → "12.34", JPY → "1234"), by string arithmetic.
 */
export function minorToDecimalText(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`Not a non-negative integer amount: ${amountMinor}`);
  if (exponent === 0) return String(amountMinor);
  const digits = String(amountMinor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
