import { describe, expect, it } from 'vitest';
import { periodAt, periodBoundary } from '@/lib/subscriptions/periods';
import { divideRounded, prorate } from '@/lib/subscriptions/proration';

const iso = (date: Date) => date.toISOString();

describe('periodBoundary', () => {
  it('clamps month ends from the anchor without drifting', () => {
    const cycle = { anchor: new Date('2024-01-31T09:30:00Z'), interval: 'month' as const, intervalCount: 1 };
    expect([1, 2, 3, 12, 13].map((n) => iso(periodBoundary(cycle, n)))).toEqual([
      '2024-02-29T09:30:00.000Z',
      '2024-03-31T09:30:00.000Z',
      '2024-04-30T09:30:00.000Z',
      '2025-01-31T09:30:00.000Z',
      '2025-02-28T09:30:00.000Z',
    ]);
  });

  it('handles days, weeks, quarters and leap-day yearly anchors', () => {
    expect(iso(periodBoundary({ anchor: new Date('2024-12-30T00:00:00Z'), interval: 'day', intervalCount: 3 }, 1))).toBe('2025-01-02T00:00:00.000Z');
    expect(iso(periodBoundary({ anchor: new Date('2024-02-26T00:00:00Z'), interval: 'week', intervalCount: 2 }, 1))).toBe('2024-03-11T00:00:00.000Z');
    expect(iso(periodBoundary({ anchor: new Date('2024-11-30T00:00:00Z'), interval: 'month', intervalCount: 3 }, 1))).toBe('2025-02-28T00:00:00.000Z');
    const leap = { anchor: new Date('2024-02-29T12:00:00Z'), interval: 'year' as const, intervalCount: 1 };
    expect(iso(periodBoundary(leap, 1))).toBe('2025-02-28T12:00:00.000Z');
    expect(iso(periodBoundary(leap, 4))).toBe('2028-02-29T12:00:00.000Z');
  });
});

describe('periodAt', () => {
  const cycle = { anchor: new Date('2024-01-31T00:00:00Z'), interval: 'month' as const, intervalCount: 1 };

  it('finds the period containing an instant, start inclusive and end exclusive', () => {
    expect(periodAt(cycle, new Date('2024-02-29T00:00:00Z'))).toEqual({
      index: 1,
      start: new Date('2024-02-29T00:00:00Z'),
      end: new Date('2024-03-31T00:00:00Z'),
    });
    expect(periodAt(cycle, new Date('2024-02-28T23:59:59.999Z')).index).toBe(0);
    expect(periodAt(cycle, new Date('2034-07-15T00:00:00Z')).start).toEqual(new Date('2034-06-30T00:00:00Z'));
  });
});

describe('prorate', () => {
  const period = { periodStart: new Date('2024-02-01T00:00:00Z'), periodEnd: new Date('2024-03-01T00:00:00Z') };

  it('charges the difference for the exact remaining time (leap February, 29 days)', () => {
    const halfway = prorate({ ...period, fromAmount: 1000, toAmount: 3000, at: new Date('2024-02-15T12:00:00Z') });
    expect(halfway).toEqual({ remainingMs: 14.5 * 86_400_000, periodMs: 29 * 86_400_000, unusedCredit: 500, remainingCharge: 1500, net: 1000 });
  });

  it('credits a downgrade and keeps the lines summing to the net', () => {
    const result = prorate({ ...period, fromAmount: 999, toAmount: 333, at: new Date('2024-02-11T00:00:00Z') });
    // 19 of 29 days remain: credit 999×19/29 = 654.52 → 655; net −666×19/29 = −436.34 → −436.
    expect(result.unusedCredit).toBe(655);
    expect(result.net).toBe(-436);
    expect(result.remainingCharge - result.unusedCredit).toBe(result.net);
  });

  it('works for zero-decimal currencies and clamps instants outside the period', () => {
    expect(prorate({ ...period, fromAmount: 1000, toAmount: 2000, at: new Date('2024-01-01T00:00:00Z') }).net).toBe(1000);
    expect(prorate({ ...period, fromAmount: 1000, toAmount: 2000, at: new Date('2024-03-05T00:00:00Z') }).net).toBe(0);
  });

  it('rounds half away from zero', () => {
    expect(divideRounded(5n, 2n)).toBe(3);
    expect(divideRounded(-5n, 2n)).toBe(-3);
    expect(divideRounded(7n, 3n)).toBe(2);
    expect(divideRounded(-7n, 3n)).toBe(-2);
  });
});
