/**
 * One line of a billing record (an invoice line), stored when the record is written because
 * what it is made of (the coupon's share, the credit taken) cannot be recomputed exactly later:
 * prices change, coupons end and the credit balance moves.
 *
 * `amount` is signed, in minor units: charges are positive, `discount` and `credit` negative;
 * the lines of a record add up to its `amount`.
 */
export interface BillingLineItem {
  kind: BillingLineKind;
  description: string;
  priceId: string | null;
  quantity: number;
  unitAmount: number;
  amount: number;
}

/**
 * `one_time`: a checkout of a one-time price or an ad hoc amount; `plan`: a subscription period;
 * `proration`: a mid-period upgrade; `discount`: a coupon; `credit`: account credit applied.
 */
export const BILLING_LINE_KINDS = ['one_time', 'plan', 'proration', 'discount', 'credit'] as const;
export type BillingLineKind = (typeof BILLING_LINE_KINDS)[number];

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
export function billingLines(charge: BilledCharge, reductions: { discountAmount?: number; discountLabel?: string; creditsApplied?: number } = {}): BilledTotals {
  const subtotal = charge.quantity * charge.unitAmount;
  const discountAmount = reductions.discountAmount ?? 0;
  const creditsApplied = reductions.creditsApplied ?? 0;
  const lineItems: BillingLineItem[] = [{ ...charge, amount: subtotal }];
  if (discountAmount > 0) {
    lineItems.push({ kind: 'discount', description: reductions.discountLabel ?? 'Discount', priceId: null, quantity: 1, unitAmount: -discountAmount, amount: -discountAmount });
  }
  if (creditsApplied > 0) {
    lineItems.push({ kind: 'credit', description: 'Account credit applied', priceId: null, quantity: 1, unitAmount: -creditsApplied, amount: -creditsApplied });
  }
  return { subtotal, discountAmount, creditsApplied, amount: subtotal - discountAmount - creditsApplied, lineItems };
}
