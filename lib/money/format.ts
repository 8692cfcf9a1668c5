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
  const formatter = currencyFormatter(locale, currency.toUpperCase(), currencyDisplay, exponent);
  // Intl accepts decimal strings exactly (no float conversion) since ES2023.
  return formatter.format((negative ? `-${decimal}` : decimal) as unknown as number);
}

/**
 * Making an `Intl.NumberFormat` costs far more than formatting with one (a receipt formats a
 * dozen amounts), so each locale, currency and display is made once. The keys are few (the
 * supported locales times the currencies in use); the map is emptied should that ever not hold.
 */
const formatters = new Map<string, Intl.NumberFormat>();
const MAX_FORMATTERS = 1000;

function currencyFormatter(locale: string, currency: string, currencyDisplay: 'symbol' | 'code', exponent: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${currencyDisplay}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}
