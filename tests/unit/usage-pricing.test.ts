import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '@/lib/money/format';
import { priceUsage, type MeteredPricing, type PriceTier } from '@/lib/usage/pricing';

/**
 * The slow reference: walks the quantity unit by unit (package by package) and adds exact
 * fractions num/den (den a power of ten taken from the decimal text), then rounds half up once.
 * It shares no code with lib/usage/pricing.ts.
 */
interface Fraction {
  num: bigint;
  den: bigint;
}

function fractionOf(unitAmount: number | null | undefined, unitAmountDecimal: string | null | undefined): Fraction {
  if (unitAmountDecimal !== undefined && unitAmountDecimal !== null) {
    const [whole, fraction = ''] = unitAmountDecimal.split('.');
    const den = 10n ** BigInt(fraction.length);
    return { num: BigInt(whole!) * den + BigInt(fraction || '0'), den };
  }
  return { num: BigInt(unitAmount ?? 0), den: 1n };
}

function add(a: Fraction, b: Fraction): Fraction {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

function roundHalfUp({ num, den }: Fraction): number {
  const whole = num / den;
  return Number(2n * (num - whole * den) >= den ? whole + 1n : whole);
}

function referencePrice(pricing: MeteredPricing, quantity: number): number {
  const units = pricing.packageSize ? Math.ceil(quantity / pricing.packageSize) : quantity;
  let total: Fraction = { num: 0n, den: 1n };
  const tiers = pricing.tiers;
  if (!tiers) {
    const unit = fractionOf(pricing.amount, pricing.unitAmountDecimal);
    for (let i = 0; i < units; i++) total = add(total, unit);
    return roundHalfUp(total);
  }
  const tierOfUnit = (n: number) => tiers.findIndex((tier) => tier.upTo === null || n <= tier.upTo);
  if (pricing.tiersMode === 'volume') {
    if (units === 0) return 0;
    const tier = tiers[tierOfUnit(units)]!;
    const unit = fractionOf(tier.unitAmount, tier.unitAmountDecimal);
    for (let i = 0; i < units; i++) total = add(total, unit);
    return roundHalfUp(add(total, { num: BigInt(tier.flatAmount ?? 0), den: 1n }));
  }
  let previousTier = -1;
  for (let n = 1; n <= units; n++) {
    const index = tierOfUnit(n);
    const tier = tiers[index]!;
    if (index !== previousTier) total = add(total, { num: BigInt(tier.flatAmount ?? 0), den: 1n });
    previousTier = index;
    total = add(total, fractionOf(tier.unitAmount, tier.unitAmountDecimal));
  }
  return roundHalfUp(total);
}

const decimalText = fc
  .tuple(fc.integer({ min: 0, max: 999 }), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 12 }))
  .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : String(whole)));

const unitPrice = fc.oneof(fc.record({ unitAmount: fc.integer({ min: 0, max: 5_000 }) }), fc.record({ unitAmountDecimal: decimalText }));

const tiersArb: fc.Arbitrary<PriceTier[]> = fc.uniqueArray(fc.integer({ min: 1, max: 3_000 }), { minLength: 0, maxLength: 4 }).chain((bounds) => {
  const upTos = [...bounds.sort((a, b) => a - b), null];
  return fc.tuple(
    ...upTos.map((upTo) =>
      fc.tuple(unitPrice, fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined })).map(([unit, flatAmount]) => ({ upTo, ...unit, flatAmount })),
    ),
  );
});

const pricingArb: fc.Arbitrary<MeteredPricing> = fc
  .record(
    {
      price: fc.oneof(
        fc.record({ amount: fc.integer({ min: 0, max: 5_000 }) }),
        fc.record({ unitAmountDecimal: decimalText }),
        fc.record({ tiers: tiersArb, tiersMode: fc.constantFrom('graduated' as const, 'volume' as const) }),
      ),
      packageSize: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
    },
    { requiredKeys: ['price'] },
  )
  .map(({ price, packageSize }) => ({ ...price, packageSize }));

const quantityArb = fc.integer({ min: 0, max: 4_000 });

describe('priceUsage', () => {
  it('agrees with the unit-by-unit reference for every pricing model', () => {
    fc.assert(
      fc.property(pricingArb, quantityArb, (pricing, quantity) => {
        expect(priceUsage(pricing, quantity).amount).toBe(referencePrice(pricing, quantity));
      }),
      { numRuns: 400, seed: 31 },
    );
  });

  it('agrees with the reference at and around every tier boundary', () => {
    const atBoundary = fc
      .tuple(tiersArb, fc.constantFrom('graduated' as const, 'volume' as const), fc.integer({ min: -1, max: 1 }), fc.nat())
      .filter(([tiers]) => tiers.length > 1)
      .map(([tiers, tiersMode, offset, pick]) => {
        const bounds = tiers.map((tier) => tier.upTo).filter((upTo) => upTo !== null);
        return { pricing: { tiers, tiersMode }, quantity: Math.max(0, bounds[pick % bounds.length]! + offset) };
      });
    fc.assert(
      fc.property(atBoundary, ({ pricing, quantity }) => {
        expect(priceUsage(pricing, quantity).amount).toBe(referencePrice(pricing, quantity));
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('rounds the exact sum once, half up: the rounding error is in (-0.5, 0.5]', () => {
    fc.assert(
      fc.property(pricingArb, quantityArb, (pricing, quantity) => {
        const charge = priceUsage(pricing, quantity);
        const [whole, fraction = ''] = charge.amountDecimal.split('.');
        const firstDigit = Number(fraction[0] ?? '0');
        expect(charge.amount).toBe(Number(whole) + (firstDigit >= 5 ? 1 : 0));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('graduated tier shares add up to the line, and count every unit once', () => {
    fc.assert(
      fc.property(tiersArb, quantityArb, (tiers, quantity) => {
        const charge = priceUsage({ tiers, tiersMode: 'graduated' }, quantity);
        expect(charge.tiers.reduce((sum, tier) => sum + tier.quantity, 0)).toBe(quantity);
        const shares = charge.tiers.reduce<Fraction>((sum, tier) => add(sum, fractionOf(null, tier.amountDecimal)), { num: 0n, den: 1n });
        const line = fractionOf(null, charge.amountDecimal);
        expect(shares.num * line.den).toBe(line.num * shares.den);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('graduated and volume agree when every tier has the same rate and no flat amount', () => {
    fc.assert(
      fc.property(tiersArb, unitPrice, quantityArb, (tiers, rate, quantity) => {
        const flatRate = tiers.map((tier) => ({ upTo: tier.upTo, ...rate }));
        expect(priceUsage({ tiers: flatRate, tiersMode: 'graduated' }, quantity).amount).toBe(
          priceUsage({ tiers: flatRate, tiersMode: 'volume' }, quantity).amount,
        );
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it('graduated never costs less for more usage', () => {
    fc.assert(
      fc.property(tiersArb, quantityArb, fc.integer({ min: 0, max: 500 }), (tiers, quantity, more) => {
        const pricing = { tiers, tiersMode: 'graduated' as const };
        expect(priceUsage(pricing, quantity + more).amount).toBeGreaterThanOrEqual(priceUsage(pricing, quantity).amount);
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it('a package price bills every started block: the same as pricing the block count', () => {
    fc.assert(
      fc.property(pricingArb, fc.integer({ min: 1, max: 500 }), quantityArb, (pricing, packageSize, quantity) => {
        const packaged = priceUsage({ ...pricing, packageSize }, quantity);
        expect(packaged.billedUnits).toBe(Math.ceil(quantity / packageSize));
        expect(packaged.amount).toBe(priceUsage({ ...pricing, packageSize: null }, packaged.billedUnits).amount);
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('prices the issue examples', () => {
    expect(priceUsage({ amount: 5 }, 1234)).toMatchObject({ amount: 6170, tiers: [] });
    const graduated = priceUsage(
      {
        tiers: [
          { upTo: 1000, unitAmount: 0 },
          { upTo: null, unitAmount: 2 },
        ],
        tiersMode: 'graduated',
      },
      1234,
    );
    expect(graduated.amount).toBe(468);
    expect(graduated.tiers).toEqual([
      { tier: 1, upTo: 1000, quantity: 1000, unitAmountDecimal: '0', flatAmount: 0, amountDecimal: '0' },
      { tier: 2, upTo: null, quantity: 234, unitAmountDecimal: '2', flatAmount: 0, amountDecimal: '468' },
    ]);
    expect(
      priceUsage(
        {
          tiers: [
            { upTo: 1000, unitAmount: 3 },
            { upTo: null, unitAmount: 2, flatAmount: 100 },
          ],
          tiersMode: 'volume',
        },
        1234,
      ).amount,
    ).toBe(2568);
    expect(priceUsage({ amount: 500, packageSize: 1000 }, 1234)).toMatchObject({ billedUnits: 2, amount: 1000 });
  });

  it('rounds decimal unit amounts half up once per line, not per unit', () => {
    // 0.0004 of a cent × 1,234,567 tokens = 493.8268 cents → 494; per unit it would have been 0.
    expect(priceUsage({ unitAmountDecimal: '0.0004' }, 1_234_567)).toMatchObject({ amount: 494, amountDecimal: '493.8268' });
    expect(priceUsage({ unitAmountDecimal: '0.5' }, 1)).toMatchObject({ amount: 1, amountDecimal: '0.5' });
    expect(priceUsage({ unitAmountDecimal: '0.499999999999' }, 1).amount).toBe(0);
    expect(priceUsage({ unitAmountDecimal: '0.000000000001' }, 499_999_999_999).amount).toBe(0);
    expect(priceUsage({ unitAmountDecimal: '0.000000000001' }, 500_000_000_000).amount).toBe(1);
  });

  it('works in the minor unit of zero-decimal (JPY) and three-decimal (KWD) currencies', () => {
    // JPY: the minor unit is the yen. ¥0.3 per call × 5 calls = ¥1.5 → ¥2.
    const yen = priceUsage({ unitAmountDecimal: '0.3' }, 5).amount;
    expect(yen).toBe(2);
    expect(formatMoney(yen, 'JPY')).toBe('¥2');
    // KWD: the minor unit is the fils (1/1000 KD). 12.5 fils per GB × 3 GB = 37.5 → 38 fils = 0.038 KD.
    const fils = priceUsage({ unitAmountDecimal: '12.5' }, 3).amount;
    expect(fils).toBe(38);
    expect(formatMoney(fils, 'KWD')).toBe('KWD\u00a00.038');
    // Graduated in yen: first 100 free, then ¥1.25: 150 calls → ¥62.5 → ¥63.
    expect(
      priceUsage(
        {
          tiers: [
            { upTo: 100, unitAmount: 0 },
            { upTo: null, unitAmountDecimal: '1.25' },
          ],
          tiersMode: 'graduated',
        },
        150,
      ).amount,
    ).toBe(63);
  });

  it('prices no usage at zero (a tier is reached by its first unit)', () => {
    expect(
      priceUsage(
        {
          tiers: [
            { upTo: 10, unitAmount: 1, flatAmount: 500 },
            { upTo: null, unitAmount: 1 },
          ],
          tiersMode: 'graduated',
        },
        0,
      ),
    ).toMatchObject({
      amount: 0,
      tiers: [],
    });
    expect(priceUsage({ tiers: [{ upTo: null, unitAmount: 1, flatAmount: 500 }], tiersMode: 'volume' }, 0).amount).toBe(0);
  });
});
