import type { BillingLineItem } from '../db/schema';
import { NO_TAX, exclusiveTaxOf, ratesOfLine, sumTaxes, taxLabel, taxOfLine, totalTaxOf, type PinnedTax, type TaxAmount } from '../tax/calculate';

export interface BilledCharge {
  kind: 'one_time' | 'plan' | 'proration';
  description: string;
  priceId: string | null;
  quantity: number;
  unitAmount: number;
}

export interface BilledTotals {
  subtotal: number;
  discountAmount: number;
  creditsApplied: number;
  /** All tax (inclusive and exclusive); `amount` includes the exclusive part. */
  taxAmount: number;
  taxes: TaxAmount[];
  taxExempt: PinnedTax['exempt'];
  amount: number;
  lineItems: BillingLineItem[];
}

/**
 * An ended period's usage of one metered price (kind `usage`), and the part of it its usage
 * credits paid (`creditAmount`, shown as a `credit` line naming the feature).
 */
export interface BilledUsage {
  line: BillingLineItem & { kind: 'usage' };
  creditAmount: number;
  creditedUnits: number;
}

/** Its taxes on a line, when it has any. */
function withTaxes<Line extends BillingLineItem>(line: Line, taxes: TaxAmount[]): Line {
  return taxes.length > 0 ? { ...line, taxes } : line;
}

/**
 * The lines and totals of one charge (none: a record of usage alone), with any usage billed in
 * arrears after it: less its discount (on the charge only) and the usage credits of each usage
 * line, plus the tax of each line on what is left of it (lib/tax/calculate.ts), less the account
 * credit applied (money the customer already has with the seller, so after tax).
 */
export function billingLines(
  charge: BilledCharge | null,
  reductions: { discountAmount?: number; discountLabel?: string; creditsApplied?: number } = {},
  usage: BilledUsage[] = [],
  tax: PinnedTax = NO_TAX,
): BilledTotals {
  const chargeAmount = charge ? charge.quantity * charge.unitAmount : 0;
  const subtotal = chargeAmount + usage.reduce((sum, billed) => sum + billed.line.amount, 0);
  const discountAmount = reductions.discountAmount ?? 0;
  const accountCredit = reductions.creditsApplied ?? 0;
  const usageCredits = usage.reduce((sum, billed) => sum + billed.creditAmount, 0);
  const creditsApplied = accountCredit + usageCredits;
  const chargeTaxes = charge ? taxOfLine(chargeAmount - discountAmount, ratesOfLine(tax, charge.priceId)) : [];
  const usageTaxes = usage.map(({ line, creditAmount }) => taxOfLine(line.amount - creditAmount, ratesOfLine(tax, line.priceId)));
  const taxes = sumTaxes([chargeTaxes, ...usageTaxes]);
  const lineItems: BillingLineItem[] = [
    ...(charge ? [withTaxes({ ...charge, amount: chargeAmount }, chargeTaxes)] : []),
    ...usage.map((billed, index) => withTaxes(billed.line, usageTaxes[index]!)),
  ];
  if (discountAmount > 0) {
    lineItems.push({
      kind: 'discount',
      description: reductions.discountLabel ?? 'Discount',
      priceId: null,
      quantity: 1,
      unitAmount: -discountAmount,
      amount: -discountAmount,
    });
  }
  if (accountCredit > 0) {
    lineItems.push({ kind: 'credit', description: 'Account credit applied', priceId: null, quantity: 1, unitAmount: -accountCredit, amount: -accountCredit });
  }
  for (const { line, creditAmount, creditedUnits } of usage) {
    if (creditAmount === 0) continue;
    lineItems.push({
      kind: 'credit',
      description: `Credits applied: ${creditedUnits} ${line.feature} units`,
      priceId: line.priceId,
      // The units the credits paid (what a later line of the same period counts as credited already).
      quantity: creditedUnits,
      unitAmount: 0,
      amount: -creditAmount,
      feature: line.feature,
      periodStart: line.periodStart,
      periodEnd: line.periodEnd,
    });
  }
  // Tax added on top is a line per rate, so a record's lines still add up to its amount.
  for (const rate of taxes) {
    if (rate.inclusive || rate.amount === 0) continue;
    lineItems.push({
      kind: 'tax',
      description: taxLabel(rate),
      priceId: null,
      quantity: 1,
      unitAmount: rate.amount,
      amount: rate.amount,
      taxRateId: rate.taxRateId,
    });
  }
  const exclusiveTax = exclusiveTaxOf(taxes);
  return {
    subtotal,
    discountAmount,
    creditsApplied,
    taxAmount: totalTaxOf(taxes),
    taxes,
    taxExempt: tax.exempt,
    amount: subtotal - discountAmount - creditsApplied + exclusiveTax,
    lineItems,
  };
}
