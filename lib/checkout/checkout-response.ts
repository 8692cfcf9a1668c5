import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts, payments, promotionCodes } from '../db/schema';
import { notFound } from '../errors';
import { toPaymentResponse, type PaymentRow } from '../payments/payments';
import { findBillingRecordForCheckout } from '../billing/billing-records';

type CheckoutRow = typeof checkouts.$inferSelect;

export async function toCheckoutResponse(db: Db, row: CheckoutRow) {
  const [payment] = row.paymentId
    ? await db
        .select()
        .from(payments)
        .where(and(eq(payments.id, row.paymentId), eq(payments.merchantId, row.merchantId)))
    : [];
  const billingRecord = await findBillingRecordForCheckout(db, row.id);
  return shapeCheckout(row, { payment, promotionCode: await promotionCodeOf(db, row), billingRecordId: billingRecord?.id ?? null });
}

export async function promotionCodeOf(db: Db, row: CheckoutRow): Promise<string | null> {
  if (!row.promotionCodeId) return null;
  const [promo] = await db
    .select({ code: promotionCodes.code })
    .from(promotionCodes)
    .where(and(eq(promotionCodes.id, row.promotionCodeId), eq(promotionCodes.merchantId, row.merchantId)));
  return promo?.code ?? null;
}

/** The API shape of a checkout from rows already in hand. */
export function shapeCheckout(row: CheckoutRow, related: { payment: PaymentRow | undefined; promotionCode: string | null; billingRecordId: string | null }) {
  const { payment, promotionCode, billingRecordId } = related;
  return {
    id: row.id,
    status: row.status,
    // A trial's checkout completes with nothing due, so without a payment.
    paid: row.status === 'paid' && (payment === undefined ? row.total === 0 && row.subscriptionId !== null : isSucceeded(payment)),
    paymentLinkId: row.paymentLinkId,
    priceId: row.priceId,
    customerId: row.customerId,
    description: row.description,
    currency: row.currency,
    unitAmount: row.unitAmount,
    quantity: row.quantity,
    subtotal: row.subtotal,
    discountAmount: row.discountAmount,
    taxAmount: row.taxAmount,
    total: row.total,
    promotionCode,
    couponId: row.couponId,
    billingRecordId,
    subscriptionId: row.subscriptionId,
    successUrl: row.successUrl,
    metadata: row.metadata,
    payment: payment ? toPaymentResponse(payment) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type CheckoutResponseBody = ReturnType<typeof shapeCheckout>;

/** A refunded payment did succeed: the checkout stays paid. */
function isSucceeded(payment: PaymentRow): boolean {
  return payment.status === 'succeeded' || payment.status === 'partially_refunded' || payment.status === 'refunded';
}

export async function getCheckout(db: Db, merchantId: string, checkoutId: string) {
  const [row] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, merchantId)));
  if (!row) throw notFound('checkout', checkoutId);
  return toCheckoutResponse(db, row);
}
