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

/** The lines and totals of one charge, less its discount, then less the credit applied. */
export function billingLines(
  charge: BilledCharge,
  reductions: { discountAmount?: number; discountLabel?: string; creditsApplied?: number } = {},
): BilledTotals {
  const subtotal = charge.quantity * charge.unitAmount;
  const discountAmount = reductions.discountAmount ?? 0;
  const creditsApplied = reductions.creditsApplied ?? 0;
  const lineItems: BillingLineItem[] = [{ ...charge, amount: subtotal }];
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
  if (creditsApplied > 0) {
    lineItems.push({ kind: 'credit', description: 'Account credit applied', priceId: null, quantity: 1, unitAmount: -creditsApplied, amount: -creditsApplied });
  }
  return { subtotal, discountAmount, creditsApplied, amount: subtotal - discountAmount - creditsApplied, lineItems };
}
