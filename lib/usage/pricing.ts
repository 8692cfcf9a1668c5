import { formatScaled, parseDecimalAmount, roundHalfUpToMinor, scaledMinor } from '../money/decimal';

/**
 * What a quantity of usage costs under a metered price (docs/usage.md, "Pricing usage"). Every
 * amount is in the price currency's minor unit (cents, yen, fils); unit amounts may be decimal
 * fractions of it ("0.0004"). The arithmetic is exact (BigInt, 10^-12 of a minor unit) and the
 * line is rounded **once**, half up to a whole minor unit, after everything is added up.
 */

export interface PriceTier {
  /** The last unit (or package) this tier covers, inclusive; null for the last tier. */
  upTo: number | null;
  unitAmount?: number | null;
  unitAmountDecimal?: string | null;
  flatAmount?: number | null;
}

export interface MeteredPricing {
  /** Per-unit integer minor units (used when neither `unitAmountDecimal` nor `tiers` is given). */
  amount?: number | null;
  unitAmountDecimal?: string | null;
  tiers?: readonly PriceTier[] | null;
  tiersMode?: 'graduated' | 'volume' | null;
  /** Bill per started block of this many units: the quantity priced is ceil(quantity / packageSize). */
  packageSize?: number | null;
}

/** One tier's share of a line: units (or packages) that fell in it and what they cost, exactly. */
export interface TierCharge {
  /** 1-based position of the tier in the price. */
  tier: number;
  upTo: number | null;
  quantity: number;
  unitAmountDecimal: string;
  flatAmount: number;
  /** Exact, before the line's rounding. */
  amountDecimal: string;
}

export interface UsageCharge {
  quantity: number;
  /** What is priced: the quantity, or the number of started packages. */
  billedUnits: number;
  /** The line's amount: exact sum rounded half up to the minor unit. */
  amount: number;
  /** The exact sum before that rounding. */
  amountDecimal: string;
  /** Tiered prices: each tier the quantity reached (volume: the one tier that prices it all). */
  tiers: TierCharge[];
}

function unitOf(source: { unitAmount?: number | null; unitAmountDecimal?: string | null; amount?: number | null }): bigint {
  if (source.unitAmountDecimal !== undefined && source.unitAmountDecimal !== null) return parseDecimalAmount(source.unitAmountDecimal);
  return scaledMinor(source.unitAmount ?? source.amount ?? 0);
}

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what} is too large: ${value}`);
  return Number(value);
}

/** The units priced: the quantity itself, or the blocks of `packageSize` it started. */
function billedUnitsOf(pricing: MeteredPricing, quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < 0) throw new RangeError(`Not a usage quantity: ${quantity}`);
  const size = pricing.packageSize ?? 1;
  return Math.ceil(quantity / size);
}

/** Prices `quantity` units of usage under `pricing`. */
export function priceUsage(pricing: MeteredPricing, quantity: number): UsageCharge {
  const billedUnits = billedUnitsOf(pricing, quantity);
  const tiers = pricing.tiers && pricing.tiers.length > 0 ? pricing.tiers : null;
  let exact = 0n;
  const charges: TierCharge[] = [];
  if (!tiers) {
    exact = unitOf(pricing) * BigInt(billedUnits);
  } else if (pricing.tiersMode === 'volume') {
    // Every unit at the rate of the tier the total falls in, plus that tier's flat amount.
    if (billedUnits > 0) {
      const index = tiers.findIndex((tier) => tier.upTo === null || billedUnits <= tier.upTo);
      const tier = tiers[index]!;
      const flat = scaledMinor(tier.flatAmount ?? 0);
      const unit = unitOf(tier);
      exact = unit * BigInt(billedUnits) + flat;
      charges.push(tierCharge(index, tier, billedUnits, unit, exact));
    }
  } else {
    // Graduated: each tier prices the units that fall in it; its flat amount once it is reached.
    let from = 0;
    for (const [index, tier] of tiers.entries()) {
      if (billedUnits <= from) break;
      const to = tier.upTo === null ? billedUnits : Math.min(tier.upTo, billedUnits);
      const inTier = to - from;
      const unit = unitOf(tier);
      const amount = unit * BigInt(inTier) + scaledMinor(tier.flatAmount ?? 0);
      charges.push(tierCharge(index, tier, inTier, unit, amount));
      exact += amount;
      from = to;
    }
  }
  return {
    quantity,
    billedUnits,
    amount: toSafeNumber(roundHalfUpToMinor(exact), 'The usage amount'),
    amountDecimal: formatScaled(exact),
    tiers: charges,
  };
}

function tierCharge(index: number, tier: PriceTier, quantity: number, unit: bigint, amount: bigint): TierCharge {
  return {
    tier: index + 1,
    upTo: tier.upTo,
    quantity,
    unitAmountDecimal: formatScaled(unit),
    flatAmount: tier.flatAmount ?? 0,
    amountDecimal: formatScaled(amount),
  };
}
