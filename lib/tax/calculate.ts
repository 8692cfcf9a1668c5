import { z } from 'zod';
import type { AppliedTaxRate as AppliedTaxRateRow, PinnedTax as PinnedTaxRow, TaxAmount } from '../db/schema';

export type { TaxAmount } from '../db/schema';

/**
 * Tax of invoice lines, exactly (docs/invoices.md, "Tax"): each line's tax per rate is
 * `amount × p / 100` for a rate added on top (exclusive) and `amount × p / (100 + Σ inclusive p)`
 * for a rate already in the price (inclusive), rounded once per line and rate, half away from
 * zero, to a whole minor unit. Percentages are decimal strings with at most 4 decimals, held as
 * BigInt ten-thousandths: no float touches money. A tax engine (Stripe Tax, Avalara) would replace
 * `taxOfLine` and the rate selection in tax-selection.ts; nothing else computes tax.
 */

/** A tax rate as it was when a charge was planned (rates never change percentage or inclusiveness). */
export const AppliedTaxRate = z.object({
  taxRateId: z.string(),
  displayName: z.string(),
  percentage: z.string(),
  inclusive: z.boolean(),
  country: z.string().nullable(),
  jurisdiction: z.string().nullable(),
});
export type AppliedTaxRate = AppliedTaxRateRow;

/** Who pays tax: `exempt` and `reverse` (the buyer accounts for it) charge none. */
export const TaxExempt = z.enum(['none', 'exempt', 'reverse']);
export type TaxExempt = z.output<typeof TaxExempt>;

/**
 * The tax a charge was planned with, pinned before the charge: the customer's exemption and,
 * for each price (key `''`: a line without a price), the rates its lines carry.
 */
export const PinnedTax = z.object({
  exempt: TaxExempt,
  ratesByPrice: z.record(z.string(), z.array(AppliedTaxRate)),
});
export type PinnedTax = PinnedTaxRow;

export const NO_TAX: PinnedTax = { exempt: 'none', ratesByPrice: {} };

const PERCENT_SCALE = 10_000n;
const HUNDRED = 100n * PERCENT_SCALE;

function scaledPercentage(percentage: string): bigint {
  const [whole, fraction = ''] = percentage.split('.');
  return BigInt(whole!) * PERCENT_SCALE + BigInt(fraction.padEnd(4, '0').slice(0, 4));
}

/** numerator / denominator rounded half away from zero (denominator > 0). */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const magnitude = numerator < 0n ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
}

/** The rates a line of `priceId` is taxed at under `tax` (none for an exempt customer). */
export function ratesOfLine(tax: PinnedTax, priceId: string | null): AppliedTaxRate[] {
  if (tax.exempt !== 'none') return [];
  return tax.ratesByPrice[priceId ?? ''] ?? [];
}

/**
 * The tax of a line of `amount` minor units (negative for a credit) at `rates`. Inclusive rates
 * take their part out of `amount`; exclusive rates add theirs on the amount net of inclusive tax.
 */
export function taxOfLine(amount: number, rates: readonly AppliedTaxRate[]): TaxAmount[] {
  if (rates.length === 0 || amount === 0) return [];
  const gross = BigInt(amount);
  const inclusiveTotal = rates.filter((rate) => rate.inclusive).reduce((sum, rate) => sum + scaledPercentage(rate.percentage), 0n);
  const netDenominator = HUNDRED + inclusiveTotal;
  const inclusiveTax = rates
    .filter((rate) => rate.inclusive)
    .reduce((sum, rate) => sum + divideRounded(gross * scaledPercentage(rate.percentage), netDenominator), 0n);
  const net = gross - inclusiveTax;
  return rates.map((rate) => {
    const share = scaledPercentage(rate.percentage);
    const taxed = rate.inclusive ? divideRounded(gross * share, netDenominator) : divideRounded(net * share, HUNDRED);
    return { ...rate, taxableAmount: Number(net), amount: Number(taxed) };
  });
}

/** Sums line taxes per rate, in the order rates first appear: the tax lines of a document. */
export function sumTaxes(lines: readonly (readonly TaxAmount[])[]): TaxAmount[] {
  const byRate = new Map<string, TaxAmount>();
  for (const taxes of lines) {
    for (const tax of taxes) {
      const seen = byRate.get(tax.taxRateId);
      byRate.set(tax.taxRateId, seen ? { ...seen, taxableAmount: seen.taxableAmount + tax.taxableAmount, amount: seen.amount + tax.amount } : { ...tax });
    }
  }
  return [...byRate.values()];
}

/** The tax a total adds on top of its lines (exclusive rates only: inclusive tax is in the lines). */
export function exclusiveTaxOf(taxes: readonly TaxAmount[]): number {
  return taxes.reduce((sum, tax) => sum + (tax.inclusive ? 0 : tax.amount), 0);
}

export function totalTaxOf(taxes: readonly TaxAmount[]): number {
  return taxes.reduce((sum, tax) => sum + tax.amount, 0);
}

/**
 * A share of a document's taxes, for a partial refund's credit note: each rate's tax and
 * taxable amount scaled by `part / whole`, rounded half away from zero.
 */
export function proportionalTaxes(taxes: readonly TaxAmount[], part: number, whole: number): TaxAmount[] {
  if (whole === 0) return [];
  return taxes.map((tax) => ({
    ...tax,
    taxableAmount: Number(divideRounded(BigInt(tax.taxableAmount) * BigInt(part), BigInt(whole))),
    amount: Number(divideRounded(BigInt(tax.amount) * BigInt(part), BigInt(whole))),
  }));
}

/** How a rate is named on a document: `VAT 20%`, `Sales tax (CA) 8.875%`. */
export function taxLabel(rate: Pick<AppliedTaxRate, 'displayName' | 'percentage' | 'jurisdiction'>): string {
  return `${rate.displayName}${rate.jurisdiction ? ` (${rate.jurisdiction})` : ''} ${rate.percentage}%`;
}
