import { describe, expect, it } from 'vitest';
import { meteredRate, priceTerms } from '@/lib/catalog/price-terms';
import { formatMinorDecimal, parseUnitPrice } from '@/lib/money/format-decimal';

const metered = { type: 'Recurring', amount: 0, currency: 'USD', interval: 'month', intervalCount: 1, usageType: 'metered', feature: 'api_calls' } as const;

describe('decimal money', () => {
  it('formats decimal minor units in major units, keeping every digit', () => {
    expect(formatMinorDecimal('0.04', 'USD')).toBe('$0.0004');
    expect(formatMinorDecimal('5', 'USD')).toBe('$0.05');
    expect(formatMinorDecimal('468', 'USD')).toBe('$4.68');
    expect(formatMinorDecimal('0.5', 'JPY')).toBe('¥0.5');
    expect(formatMinorDecimal('12.5', 'KWD', 'de')).toBe('0,0125\u00a0KWD');
    expect(formatMinorDecimal('0.000000000001', 'USD')).toBe('$0.00000000000001');
  });

  it('reads a typed unit price as whole minor units when it can, else as an exact decimal', () => {
    expect(parseUnitPrice('0.05', 'USD')).toEqual({ amount: 5 });
    expect(parseUnitPrice('0.050', 'USD')).toEqual({ amount: 5 });
    expect(parseUnitPrice('0.0004', 'USD')).toEqual({ unitAmountDecimal: '0.04' });
    expect(parseUnitPrice('0.5', 'JPY')).toEqual({ unitAmountDecimal: '0.5' });
    expect(parseUnitPrice('12.345', 'KWD')).toEqual({ amount: 12345 });
    expect(parseUnitPrice('1,000', 'USD')).toEqual({ amount: 100000 });
    expect(parseUnitPrice('-1', 'USD')).toBeUndefined();
    expect(parseUnitPrice('abc', 'USD')).toBeUndefined();
  });
});

describe('price terms', () => {
  it('says a licensed price per period, as before', () => {
    expect(priceTerms({ type: 'Recurring', amount: 2000, currency: 'USD', interval: 'month', intervalCount: 1 })).toBe('$20.00 per month');
    expect(priceTerms({ type: 'Recurring', amount: 1500, currency: 'JPY', interval: 'month', intervalCount: 3 })).toBe('¥1,500 every 3 months');
    expect(priceTerms({ type: 'OneTime', amount: 500, currency: 'USD', interval: null, intervalCount: null })).toBe('$5.00 one time');
  });

  it('says a metered price per unit of its feature, billed in arrears', () => {
    expect(priceTerms({ ...metered, amount: 5 })).toBe('$0.05 per api_calls unit, billed monthly in arrears');
    expect(priceTerms({ ...metered, feature: 'tokens', unitAmountDecimal: '0.04', interval: 'month', intervalCount: 3 })).toBe(
      '$0.0004 per tokens unit, billed every 3 months in arrears',
    );
    expect(meteredRate({ ...metered, amount: 100, packageSize: 1000 })).toBe('$1.00 per 1,000 api_calls units');
  });

  it('lists tiers, graduated or volume', () => {
    const free = {
      ...metered,
      tiersMode: 'graduated',
      tiers: [
        { upTo: 1000, unitAmount: 0 },
        { upTo: null, unitAmount: 2 },
      ],
    } as const;
    expect(meteredRate(free)).toBe('Graduated: first 1,000 free, then $0.02 per api_calls unit');
    const three = {
      ...metered,
      tiersMode: 'graduated',
      tiers: [
        { upTo: 100, unitAmount: 3, flatAmount: 500 },
        { upTo: 5000, unitAmountDecimal: '1.5' },
        { upTo: null, unitAmount: 1 },
      ],
    } as const;
    expect(meteredRate(three)).toBe('Graduated: first 100 at $0.03 + $5.00 flat, 101–5,000 at $0.015, then $0.01 per api_calls unit');
    expect(meteredRate({ ...three, tiersMode: 'volume' })).toBe(
      'Volume: up to 100 at $0.03 + $5.00 flat, up to 5,000 at $0.015, above at $0.01 per api_calls unit',
    );
  });
});
