import { describe, expect, it } from 'vitest';
import { currencyExponent, isKnownCurrency, normalizeCurrency } from '@/lib/money/currencies';
import { formatMoney } from '@/lib/money/format';

describe('currencies', () => {
  it('knows each exponent', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('KRW')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('BHD')).toBe(3);
  });

  it('accepts only active ISO 4217 codes', () => {
    expect(normalizeCurrency('eur')).toBe('EUR');
    expect(isKnownCurrency('XYZ')).toBe(false);
    expect(isKnownCurrency('US')).toBe(false);
  });
});

describe('formatMoney', () => {
  it("formats in the currency's own decimals", () => {
    expect(formatMoney(1050, 'USD')).toBe('$10.50');
    expect(formatMoney(1050, 'JPY')).toBe('¥1,050');
    expect(formatMoney(1050, 'KWD')).toBe('KWD\u00a01.050');
    expect(formatMoney(5, 'EUR')).toBe('€0.05');
    expect(formatMoney(-250, 'USD')).toBe('-$2.50');
  });

  it('is exact beyond float precision', () => {
    expect(formatMoney(9007199254740993n, 'USD')).toBe('$90,071,992,547,409.93');
  });
});
