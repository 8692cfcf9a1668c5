import { currencyExponent } from '../money/currencies';

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
 * Text starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so a
 * spreadsheet never runs it as a formula (numbers are left as they are).
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: (string | number | boolean | null | undefined)[][]): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Minor units as a plain decimal in the currency's own decimals (`1234` USD → `12.34`), no float. */
export function decimalAmount(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = amountMinor < 0;
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  return `${negative ? '-' : ''}${exponent ? `${whole}.${digits.slice(digits.length - exponent)}` : whole}`;
}
