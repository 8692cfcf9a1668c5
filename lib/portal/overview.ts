import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { PinnedTax } from '../tax/calculate';
import { selectTax } from '../tax/tax-selection';
import type { Db } from '../db/client';
import { billingRecords, creditNotes, paymentMethods, prices, products, subscriptions } from '../db/schema';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { invoicePath, invoicePdfPath } from '../billing/billing-records';
import { toPaymentMethodResponse } from '../payments/payment-methods';
import { toSubscriptionResponse } from '../subscriptions/responses';
import { renewalQuote } from '../subscriptions/discounts';
import { advanceAmount } from '../catalog/prices';
import { documentLines, type DocumentLine } from '../billing/document-lines';
import { customerPriceLabel } from '../billing/price-words';
import { findUpcomingInvoice } from '../subscriptions/upcoming-invoice';

/**
 * Renewals' billing records keep the English description they were made with ("Pro plan —
 * subscription period 3", lib/subscriptions/billing.ts); the portal rewords it for the customer.
 */
const PERIOD_DESCRIPTION = /^(.*) — subscription period (\d+)$/;

function describeRecord(description: string, text: CustomerText): string {
  const period = PERIOD_DESCRIPTION.exec(description);
  return period ? text.t('portal.periodDescription', { product: period[1]!, period: Number(period[2]) }) : description;
}

/** What the next invoice of a subscription would be if its period ended now, in the customer's words. */
export interface PortalUpcomingInvoice {
  at: string;
  lines: DocumentLine[];
  total: string;
}

/** Everything the portal shows a customer, amounts formatted in each currency's own way for the customer's locale. */
export async function portalOverview(db: Db, merchantId: string, customerId: string, text: CustomerText = customerText()) {
  const money = text.money;
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
        .where(
          and(
            eq(prices.merchantId, merchantId),
            inArray(prices.productId, productIds),
            eq(prices.type, 'Recurring'),
            eq(prices.usageType, 'licensed'),
            eq(prices.active, true),
          ),
        )
    : [];
  const history = await db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.merchantId, merchantId), eq(billingRecords.customerId, customerId), ne(billingRecords.status, 'open')))
    .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
    .limit(50);
  const credited = await creditedOf(
    db,
    merchantId,
    history.map((r) => r.id),
  );
  const methods = await db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt));
  const upcoming = new Map<string, PortalUpcomingInvoice>();
  const taxes = new Map<string, PinnedTax>();
  for (const { sub } of running) {
    taxes.set(sub.id, await selectTax(db, merchantId, customerId, [sub.priceId]));
    const invoice = await findUpcomingInvoice(db, merchantId, sub.id);
    if (!invoice) continue;
    upcoming.set(sub.id, {
      at: invoice.at,
      lines: documentLines(invoice.lineItems, invoice.currency, text),
      total: money(invoice.total, invoice.currency),
    });
  }
  return {
    subscriptions: subs.map(({ sub, price, productName }) => {
      const charging = sub.status !== 'ended' && sub.status !== 'canceled' && !sub.pausedAt;
      const renewal = renewalQuote(sub, { id: price.id, amount: advanceAmount(price) }, { tax: taxes.get(sub.id) });
      return {
        ...toSubscriptionResponse(sub),
        productName,
        priceLabel: customerPriceLabel(price, text),
        upcomingInvoice: upcoming.get(sub.id) ?? null,
        nextCharge: charging
          ? {
              at: renewal.at,
              amount: money(renewal.amountDue, price.currency),
              discount: renewal.discountAmount > 0 ? money(renewal.discountAmount, price.currency) : null,
              plusUsage: Boolean(upcoming.get(sub.id)?.lines.some((line) => line.kind === 'usage')),
            }
          : null,
        discountLabel: sub.discount ? text.discount(sub.discount, price.currency) : null,
        creditBalanceLabel: sub.creditBalance > 0 ? money(sub.creditBalance, price.currency) : null,
        options: alternatives
          .filter(
            (p) =>
              p.productId === price.productId &&
              p.id !== price.id &&
              p.currency === price.currency &&
              p.interval === price.interval &&
              (p.intervalCount ?? 1) === (price.intervalCount ?? 1),
          )
          .map((p) => ({ id: p.id, label: text.recurring(p.amount, p.currency, p.interval, p.intervalCount) })),
      };
    }),
    history: history.map((r) => ({
      id: r.id,
      description: describeRecord(r.description, text),
      status: recordStatus(r, credited.get(r.id) ?? 0),
      amount: money(r.amount, r.currency),
      discount: r.discountAmount > 0 ? money(r.discountAmount, r.currency) : null,
      date: (r.paidAt ?? r.createdAt).toISOString(),
      invoicePath: invoicePath(r.hostedToken),
      invoicePdfPath: invoicePdfPath(r.hostedToken),
    })),
    paymentMethods: methods.map(toPaymentMethodResponse),
  };
}

/** What credit notes gave back on each record, for "paid · partly refunded" (one query for the page). */
async function creditedOf(db: Db, merchantId: string, billingRecordIds: string[]) {
  if (billingRecordIds.length === 0) return new Map<string, number>();
  const sums = await db
    .select({ billingRecordId: creditNotes.billingRecordId, amount: sql<number>`sum(${creditNotes.amount})::int` })
    .from(creditNotes)
    .where(and(eq(creditNotes.merchantId, merchantId), inArray(creditNotes.billingRecordId, billingRecordIds)))
    .groupBy(creditNotes.billingRecordId);
  return new Map(sums.map((sum) => [sum.billingRecordId, sum.amount]));
}

/** A paid record that credit notes reduced reads "paid · partly refunded" or "paid · refunded". */
function recordStatus(record: { status: string; amount: number }, credited: number) {
  if (record.status !== 'paid' || credited === 0) return record.status;
  return credited >= record.amount ? 'refunded' : 'partially_refunded';
}
