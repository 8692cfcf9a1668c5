import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, paymentMethods, prices, products, subscriptions } from '../db/schema';
import { formatMoney } from '../money/format';
import { invoicePath, invoicePdfPath } from '../billing/billing-records';
import { toPaymentMethodResponse } from '../payments/payment-methods';
import { toSubscriptionResponse } from '../subscriptions/subscriptions';
import { describeDiscount, renewalQuote } from '../subscriptions/discounts';

export function describeInterval(interval: string | null, intervalCount: number | null) {
  const n = intervalCount ?? 1;
  return n === 1 ? `per ${interval}` : `every ${n} ${interval}s`;
}

/** Everything the portal shows a customer, amounts formatted in each currency's own way. */
export async function portalOverview(db: Db, merchantId: string, customerId: string) {
  const subs = await db
    .select({ sub: subscriptions, price: prices, productName: products.name })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.priceId))
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.customerId, customerId)))
    .orderBy(desc(subscriptions.createdAt));
  const running = subs.filter((s) => s.sub.status !== 'ended');
  const productIds = [...new Set(running.map((s) => s.price.productId))];
  const alternatives = productIds.length
    ? await db
        .select()
        .from(prices)
        .where(and(eq(prices.merchantId, merchantId), inArray(prices.productId, productIds), eq(prices.type, 'Recurring'), eq(prices.active, true)))
    : [];
  const history = await db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.merchantId, merchantId), eq(billingRecords.customerId, customerId), ne(billingRecords.status, 'open')))
    .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
    .limit(50);
  const methods = await db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt));
  return {
    subscriptions: subs.map(({ sub, price, productName }) => {
      const charging = sub.status !== 'ended' && sub.status !== 'canceled' && !sub.pausedAt;
      const renewal = renewalQuote(sub, price.amount);
      return {
        ...toSubscriptionResponse(sub),
        productName,
        priceLabel: `${formatMoney(price.amount, price.currency)} ${describeInterval(price.interval, price.intervalCount)}`,
        nextCharge: charging
          ? {
              at: renewal.at,
              amount: formatMoney(renewal.amountDue, price.currency),
              discount: renewal.discountAmount > 0 ? formatMoney(renewal.discountAmount, price.currency) : null,
            }
          : null,
        discountLabel: sub.discount ? describeDiscount(sub.discount, price.currency) : null,
        creditBalanceLabel: sub.creditBalance > 0 ? formatMoney(sub.creditBalance, price.currency) : null,
        options: alternatives
          .filter((p) => p.productId === price.productId && p.id !== price.id && p.currency === price.currency && p.interval === price.interval && (p.intervalCount ?? 1) === (price.intervalCount ?? 1))
          .map((p) => ({ id: p.id, label: `${formatMoney(p.amount, p.currency)} ${describeInterval(p.interval, p.intervalCount)}` })),
      };
    }),
    history: history.map((r) => ({
      id: r.id,
      description: r.description,
      status: r.status,
      amount: formatMoney(r.amount, r.currency),
      discount: r.discountAmount > 0 ? formatMoney(r.discountAmount, r.currency) : null,
      date: (r.paidAt ?? r.createdAt).toISOString(),
      invoicePath: invoicePath(r.hostedToken),
      invoicePdfPath: invoicePdfPath(r.hostedToken),
    })),
    paymentMethods: methods.map(toPaymentMethodResponse),
  };
}
