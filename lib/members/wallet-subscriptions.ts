import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, merchants, prices, products, subscriptions } from '../db/schema';
import { numberedPage } from '../db/paginate';

/**
 * A wallet member's subscriptions with every seller: those of each seller's customer with the
 * member's (verified) email, newest first, with the seller's and product's names. Read-only:
 * each seller's own portal is where a subscription is changed.
 */
export async function listWalletSubscriptions(db: Db, email: string, query: { page: number; pageSize: number }) {
  const where = sql`lower(${customers.email}) = ${email.toLowerCase()}`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: subscriptions.id,
        status: subscriptions.status,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        endedAt: subscriptions.endedAt,
        sellerName: merchants.name,
        productName: products.name,
        amount: prices.amount,
        currency: prices.currency,
        interval: prices.interval,
        intervalCount: prices.intervalCount,
        usageType: prices.usageType,
        feature: prices.feature,
        unitAmountDecimal: prices.unitAmountDecimal,
        tiers: prices.tiers,
        packageSize: prices.packageSize,
      })
      .from(subscriptions)
      .innerJoin(customers, eq(customers.id, subscriptions.customerId))
      .innerJoin(merchants, eq(merchants.id, subscriptions.merchantId))
      .innerJoin(prices, eq(prices.id, subscriptions.priceId))
      .innerJoin(products, eq(products.id, prices.productId))
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(subscriptions).innerJoin(customers, eq(customers.id, subscriptions.customerId)).where(where),
  ]);
  return numberedPage(rows, query, total?.value ?? 0);
}
