import { currencyExponent } from './currencies';

/**
 * Formats an integer minor-unit amount for people, in the currency's own decimals.
 * Uses bigint arithmetic and string splitting so no float ever touches the amount.
 */
export function formatMoney(amountMinor: number | bigint, currency: string, locale = 'en-US', currencyDisplay: 'symbol' | 'code' = 'symbol'): string {
  const exponent = currencyExponent(currency);
  const minor = BigInt(amountMinor);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent) || '0';
  const fraction = exponent ? digits.slice(digits.length - exponent) : '';
  const decimal = exponent ? `${whole}.${fraction}` : whole;
  const formatter = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  // Intl accepts decimal strings exactly (no float conversion) since ES2023.
  return formatter.format((negative ? `-${decimal}` : decimal) as unknown as number);
}
