import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { checkouts } from '../db/schema';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { findCustomerRow } from '../customers/customers';
import { findPublicPaymentLink } from '../payment-links/payment-links';
import { portalPath } from '../portal/portal';
import { findPriceRow } from '../catalog/prices';
import { findSubscriptionRow } from '../subscriptions/queries';
import { renewalQuote } from '../subscriptions/discounts';
import { selectTax } from '../tax/tax-selection';
import { reconcilePayment } from '../payments/recovery';
import { toCheckoutResponse } from './checkout-response';
// Settling finds the payment's kind in the registry: the one-time checkout's must be loaded here too.
import './checkout-outcome';
import type { CheckoutRow } from './checkout-status';

export interface HostedCheckoutResult {
  sellerName: string;
  name: string;
  total: string;
  status: 'paid' | 'processing' | 'failed';
  /** Why a failed payment failed (a decline, an authentication not completed), in the customer's words. */
  failureReason: string | null;
  /** The card authentication page, while the customer has not finished there (they came back without). */
  authenticateUrl: string | null;
  card: string | null;
  email: string | null;
  /** The seller's page to continue to, with `checkoutId` appended; null when none was set. */
  continueUrl: string | null;
  /** For a checkout that started a subscription: what happens next. */
  subscription: SubscriptionNextSteps | null;
}

export interface SubscriptionNextSteps {
  trialing: boolean;
  /** "30 Nov 2026" (in the customer's locale): the trial's last day, or when the paid period renews. */
  nextChargeDate: string;
  nextChargeAmount: string;
  /** "$19.99/month". */
  recurringLabel: string;
  /** The coupon still discounting, as the customer typed it. */
  promotionCode: string | null;
  portalUrl: string;
}

async function nextStepsOf(db: Database, merchantId: string, subscriptionId: string, customerId: string, text: CustomerText): Promise<SubscriptionNextSteps> {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const price = await findPriceRow(db, merchantId, sub.priceId);
  const next = renewalQuote(sub, price, { tax: await selectTax(db, merchantId, sub.customerId, [price.id]) });
  return {
    trialing: sub.status === 'trialing',
    nextChargeDate: text.date(next.at),
    nextChargeAmount: text.money(next.amountDue, price.currency),
    recurringLabel: text.recurring(price.amount, price.currency, price.interval, price.intervalCount),
    promotionCode: next.discountAmount > 0 ? sub.discount!.code : null,
    portalUrl: portalPath(customerId),
  };
}

/**
 * The checkout as the result page shows it. A payment waiting for the card's authentication is
 * where the authentication page sends the customer back, so the processor is asked at once
 * (the `reconcile-payment` job would only later): the customer sees paid or declined now.
 */
async function settledOnReturn(db: Database, row: CheckoutRow) {
  const checkout = await toCheckoutResponse(db, row);
  if (checkout.payment?.status !== 'requires_action') return checkout;
  await reconcilePayment(db, checkout.payment.id);
  const [settled] = await db.select().from(checkouts).where(eq(checkouts.id, row.id));
  return toCheckoutResponse(db, settled!);
}

/** A checkout of this very link (the success page shows no other, so ids cannot be probed), with the link. */
export async function findCheckoutOfLink(db: Database, token: string, checkoutId: string) {
  const found = await findPublicPaymentLink(db, token);
  if (!found) return undefined;
  const [row] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.paymentLinkId, found.link.id)));
  return row ? { found, row } : undefined;
}

/** The success page's result for a checkout of this link. */
export async function loadHostedCheckoutResult(
  db: Database,
  token: string,
  checkoutId: string,
  text: CustomerText = customerText(),
): Promise<HostedCheckoutResult | undefined> {
  const { found, row } = (await findCheckoutOfLink(db, token, checkoutId)) ?? {};
  if (!found || !row) return undefined;
  const checkout = await settledOnReturn(db, row);
  const customer = await findCustomerRow(db, row.merchantId, row.customerId);
  let continueUrl: string | null = null;
  if (row.successUrl) {
    const url = new URL(row.successUrl);
    url.searchParams.set('checkoutId', row.id);
    continueUrl = url.toString();
  }
  return {
    sellerName: found.sellerName,
    name: row.description,
    total: text.money(row.total, row.currency),
    status: checkout.paid ? 'paid' : checkout.status === 'failed' ? 'failed' : 'processing',
    failureReason: !checkout.paid && checkout.status === 'failed' ? text.declineReason(checkout.payment?.failureCode) : null,
    authenticateUrl: checkout.payment?.nextAction?.url ?? null,
    card: checkout.payment?.card ? text.card(checkout.payment.card.brand, checkout.payment.card.last4) : null,
    email: customer.email,
    continueUrl,
    subscription: row.subscriptionId && checkout.status !== 'failed' ? await nextStepsOf(db, row.merchantId, row.subscriptionId, row.customerId, text) : null,
  };
}
