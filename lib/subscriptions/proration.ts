export interface ProrationInput {
  /** Amount per period of the current price, minor units. */
  fromAmount: number;
  /** Amount per period of the new price, same currency, minor units. */
  toAmount: number;
  periodStart: Date;
  periodEnd: Date;
  /** When the change takes effect; clamped into the period. */
  at: Date;
}

export interface Proration {
  remainingMs: number;
  periodMs: number;
  /** Credit for the unused part of the current price (≥ 0). */
  unusedCredit: number;
  /** Charge for the remaining part at the new price (≥ 0). */
  remainingCharge: number;
  /** `remainingCharge − unusedCredit`: positive is charged now, negative is credited. */
  net: number;
}

/**
 * Prorates a price change by the exact remaining time, in milliseconds.
 *
 * Rounding rule: the net amount `(to − from) × remaining / period` is computed exactly in
 * integers and rounded once, half away from zero, to the minor unit. The credit line is rounded
 * the same way and the charge line is derived from both, so the two lines always add up to the
 * net exactly.
 */
export function prorate(input: ProrationInput): Proration {
  const periodMs = input.periodEnd.getTime() - input.periodStart.getTime();
  if (periodMs <= 0) throw new RangeError('The period must end after it starts.');
  const at = Math.min(Math.max(input.at.getTime(), input.periodStart.getTime()), input.periodEnd.getTime());
  const remainingMs = input.periodEnd.getTime() - at;
  const net = divideRounded(BigInt(input.toAmount - input.fromAmount) * BigInt(remainingMs), BigInt(periodMs));
  const unusedCredit = divideRounded(BigInt(input.fromAmount) * BigInt(remainingMs), BigInt(periodMs));
  return { remainingMs, periodMs, unusedCredit, remainingCharge: net + unusedCredit, net };
}

/** numerator / denominator rounded half away from zero (denominator > 0). */
export function divideRounded(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return Number(negative ? -quotient : quotient);
}
