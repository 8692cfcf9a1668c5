import type { BillingLineItem } from '../db/schema';

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

/**
 * The lines and totals of one charge (none: a record of usage alone), with any usage billed in arrears after it, less its
 * discount (on the charge only), then less the credit applied (account credit, then the usage
 * credits of each usage line).
 */
export function billingLines(
  charge: BilledCharge | null,
  reductions: { discountAmount?: number; discountLabel?: string; creditsApplied?: number } = {},
  usage: BilledUsage[] = [],
): BilledTotals {
  const chargeAmount = charge ? charge.quantity * charge.unitAmount : 0;
  const subtotal = chargeAmount + usage.reduce((sum, billed) => sum + billed.line.amount, 0);
  const discountAmount = reductions.discountAmount ?? 0;
  const accountCredit = reductions.creditsApplied ?? 0;
  const usageCredits = usage.reduce((sum, billed) => sum + billed.creditAmount, 0);
  const creditsApplied = accountCredit + usageCredits;
  const lineItems: BillingLineItem[] = [...(charge ? [{ ...charge, amount: chargeAmount }] : []), ...usage.map((billed) => billed.line)];
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
  return { subtotal, discountAmount, creditsApplied, amount: subtotal - discountAmount - creditsApplied, lineItems };
}
