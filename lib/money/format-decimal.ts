import { currencyExponent } from './currencies';

/**
 * Formats a decimal amount of minor units ("0.04" cents, a metered price's `unitAmountDecimal`
 * or a tier's exact `amountDecimal`) for people in major units ("$0.0004"), with at least the
 * currency's own decimals and as many more as the amount has. String arithmetic: no float.
 */
export function formatMinorDecimal(decimalMinor: string, currency: string, locale = 'en-US', currencyDisplay: 'symbol' | 'code' = 'symbol'): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimalMinor);
  if (!match) throw new RangeError(`Not a decimal amount: ${decimalMinor}`);
  const [, sign, whole, fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const padded = whole!.padStart(exponent + 1, '0');
  const majorWhole = padded.slice(0, padded.length - exponent);
  const majorFraction = `${padded.slice(padded.length - exponent)}${fraction}`.replace(/0+$/, '');
  const decimals = Math.max(exponent, majorFraction.length);
  const text = `${sign}${majorWhole}${majorFraction ? `.${majorFraction}` : ''}`;
  const formatter = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay,
    minimumFractionDigits: exponent,
    maximumFractionDigits: decimals,
  });
  // Intl formats decimal strings exactly (no float conversion) since ES2023.
  return formatter.format(text as unknown as number);
}

/**
 * Reads a unit price typed in major units ("0.05", "0.0004" dollars) as minor units: whole
 * ones (`amount`: 5) when it has no more decimals than the currency, else an exact decimal
 * (`unitAmountDecimal`: "0.04"). Undefined when it is not a non-negative decimal.
 */
export function parseUnitPrice(text: string, currency: string): { amount: number } | { unitAmountDecimal: string } | undefined {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.replaceAll(',', '').replaceAll(' ', '').trim());
  if (!match) return undefined;
  const exponent = currencyExponent(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const digits = `${match[1]}${fraction.padEnd(exponent, '0')}`;
  const minorWhole = digits.slice(0, match[1]!.length + exponent).replace(/^0+(?=\d)/, '');
  const minorFraction = digits.slice(match[1]!.length + exponent);
  if (!minorFraction) {
    const amount = Number(minorWhole);
    return Number.isSafeInteger(amount) ? { amount } : undefined;
  }
  return { unitAmountDecimal: `${minorWhole}.${minorFraction}` };
}
