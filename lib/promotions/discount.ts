/**
 * The discount rule, written down once (docs/payments.md): a percent coupon takes
 * `subtotal × percent / 100` rounded half up to the minor unit, once, on the whole subtotal
 * (never per unit); a fixed coupon takes its amount, capped at the subtotal. The total is never
 * negative. Integer (bigint) arithmetic only.
 */
export function discountAmount(coupon: { percentOff: number | null; amountOff: number | null }, subtotal: number): number {
  if (coupon.percentOff !== null) {
    const discount = (BigInt(subtotal) * BigInt(coupon.percentOff) * 2n + 100n) / 200n;
    return Number(discount);
  }
  return Math.min(coupon.amountOff ?? 0, subtotal);
}
