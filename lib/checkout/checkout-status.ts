import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts } from '../db/schema';
import { now } from '../clock';
import { grantPolicyCredits } from '../usage/credits';
import { recordEntitlementChanged } from '../usage/entitlement-changes';
import { recordPaymentLinkCompleted, releasePaymentLinkCompletion } from '../payment-links/completions';
import { releasePromotionRedemption } from '../promotions/promotion-codes';
import { checkoutStateMachine } from './checkout-states';

/*
 * How a checkout ends (open → paid or failed) and finding one by its payment: written by
 * completeCheckout (checkouts.ts), the subscription hand-off and reconciliation, so it sits
 * below all three.
 */

export type CheckoutRow = typeof checkouts.$inferSelect;

/**
 * open → paid, and the link's `payment_link.completed` when the checkout came from a link.
 * `grantsPurchase` is `purchaseGrants` of its price when the caller already read it. A checkout
 * that is no longer open (another finisher ended it) is left alone: undefined, nothing announced.
 */
export async function markCheckoutPaid(tx: Db, checkout: CheckoutRow, grantsPurchase?: boolean): Promise<CheckoutRow | undefined> {
  const [paid] = await tx
    .update(checkouts)
    .set({ status: 'paid', updatedAt: now() })
    .where(and(eq(checkouts.id, checkout.id), eq(checkouts.merchantId, checkout.merchantId), inArray(checkouts.status, checkoutStateMachine.sourcesOf('paid'))))
    .returning();
  if (!paid) return undefined;
  if (paid.paymentLinkId) {
    await recordPaymentLinkCompleted(tx, paid.merchantId, paid.paymentLinkId, { checkoutId: paid.id, paymentId: paid.paymentId });
  }
  if (paid.priceId && (grantsPurchase ?? (await readPurchaseGrants(tx, paid.priceId)))) await grantPurchaseEntitlements(tx, paid, paid.priceId);
  return paid;
}

/**
 * Whether paying for a price grants anything: a one-time price with entitlement policies (most
 * prices have none, and then there is nothing to grant or announce). Phase 3 reads it with the
 * locked payment, other callers on their own.
 */
export function purchaseGrants(priceId: SQLWrapper) {
  return sql<boolean>`exists (select 1 from prices pr join entitlement_policies ep on ep.price_id = pr.id where pr.id = ${priceId} and pr.type = 'OneTime')`;
}

async function readPurchaseGrants(tx: Db, priceId: string): Promise<boolean> {
  const result = await tx.execute<{ grants: boolean }>(sql`select ${purchaseGrants(sql`${priceId}`)} as grants`);
  return result.rows[0]!.grants;
}

/** A paid one-time price brings its policies' credits (once per checkout) and entitlements. */
export async function grantPurchaseEntitlements(tx: Db, checkout: CheckoutRow, priceId: string) {
  const purchase = { merchantId: checkout.merchantId, customerId: checkout.customerId, priceId };
  await grantPolicyCredits(tx, { ...purchase, origin: { checkoutId: checkout.id } });
  await recordEntitlementChanged(tx, { ...purchase, cause: 'purchase', priceIds: [priceId] });
}

/**
 * open → failed; the promotion redemption and the link slot the attempt held are given back,
 * once: a checkout that is no longer open (another finisher ended it) is left alone (undefined).
 */
export async function failCheckout(tx: Db, checkout: CheckoutRow): Promise<CheckoutRow | undefined> {
  const [failed] = await tx
    .update(checkouts)
    .set({ status: 'failed', updatedAt: now() })
    .where(
      and(eq(checkouts.id, checkout.id), eq(checkouts.merchantId, checkout.merchantId), inArray(checkouts.status, checkoutStateMachine.sourcesOf('failed'))),
    )
    .returning();
  if (!failed) return undefined;
  await releaseCheckoutReservations(tx, failed);
  return failed;
}

/** What a failed attempt gives back: its promotion redemption and its link's completion slot. */
export async function releaseCheckoutReservations(tx: Db, checkout: CheckoutRow): Promise<void> {
  if (checkout.promotionCodeId && checkout.couponId) await releasePromotionRedemption(tx, checkout.promotionCodeId, checkout.couponId);
  if (checkout.paymentLinkId) await releasePaymentLinkCompletion(tx, checkout.paymentLinkId);
}

export async function findCheckoutRowByPayment(db: Db, paymentId: string) {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.paymentId, paymentId));
  return row;
}

/**
 * Whether a checkout still in progress (open: its payment pending or not yet settled) holds one
 * of the link's completion slots, which it gives back if its payment fails.
 */
export async function paymentLinkSlotHeld(db: Db, merchantId: string, paymentLinkId: string): Promise<boolean> {
  const [open] = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.merchantId, merchantId), eq(checkouts.paymentLinkId, paymentLinkId), eq(checkouts.status, 'open')))
    .limit(1);
  return open !== undefined;
}
