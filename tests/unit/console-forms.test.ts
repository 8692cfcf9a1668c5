import { describe, expect, it } from 'vitest';
import { minorToDecimalText, parseMoney } from '@/lib/money/parse';
import { parseDayBound, parseUtcDateTimeLocal } from '@/lib/server/web/form-dates';

describe('console amount inputs', () => {
  it('prints minor units as decimal text in the currency’s own decimals', () => {
    expect(minorToDecimalText(1234, 'USD')).toBe('12.34');
    expect(minorToDecimalText(5, 'EUR')).toBe('0.05');
    expect(minorToDecimalText(0, 'USD')).toBe('0.00');
    expect(minorToDecimalText(1500, 'JPY')).toBe('1500');
    expect(minorToDecimalText(1, 'KWD')).toBe('0.001');
    expect(() => minorToDecimalText(-1, 'USD')).toThrow(RangeError);
    expect(() => minorToDecimalText(1.5, 'USD')).toThrow(RangeError);
  });

  it('round-trips exactly with parseMoney, beyond float precision', () => {
    for (const [amount, currency] of [
      [1, 'USD'],
      [1999, 'USD'],
      [2_147_483_647, 'USD'],
      [1500, 'JPY'],
      [1050, 'KWD'],
      [9_007_199_254_740_991, 'USD'],
    ] as const) {
      expect(parseMoney(minorToDecimalText(amount, currency), currency)).toBe(amount);
    }
    // 0.1 + 0.2 style input is read as text: no float rounding.
    expect(parseMoney('0.29', 'USD')).toBe(29);
    expect(parseMoney('1.005', 'USD')).toBeUndefined();
    expect(parseMoney('12.5', 'JPY')).toBeUndefined();
  });
});

describe('console date inputs (UTC)', () => {
  it('turns a day into inclusive bounds', () => {
    expect(parseDayBound('2026-03-01', 'start')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseDayBound('2026-03-01', 'end')?.toISOString()).toBe('2026-03-01T23:59:59.999Z');
    expect(parseDayBound('2026-02-30', 'start')).toBeUndefined();
    expect(parseDayBound('', 'start')).toBeUndefined();
    expect(parseDayBound(undefined, 'end')).toBeUndefined();
    expect(parseDayBound('03/01/2026', 'start')).toBeUndefined();
  });

  it('reads a datetime-local value as UTC', () => {
    expect(parseUtcDateTimeLocal('2030-12-31T23:59')?.toISOString()).toBe('2030-12-31T23:59:00.000Z');
    expect(parseUtcDateTimeLocal('2030-01-02T03:04:05')?.toISOString()).toBe('2030-01-02T03:04:05.000Z');
    expect(parseUtcDateTimeLocal('2030-01-02T24:00')).toBeUndefined();
    expect(parseUtcDateTimeLocal('2031-02-29T10:00')).toBeUndefined();
    expect(parseUtcDateTimeLocal('tomorrow')).toBeUndefined();
  });
});
