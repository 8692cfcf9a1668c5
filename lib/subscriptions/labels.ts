import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, prices, products } from '../db/schema';
import { priceTerms } from '../catalog/price-terms';

export interface CustomerLabel {
  name: string | null;
  email: string | null;
}

export interface PriceLabel {
  productName: string;
  /** "$19.99 per month", "¥3,000 every 3 months", "$5.00 one time", "$0.05 per api_calls unit, billed monthly in arrears". */
  amount: string;
  /** "per month", "every 3 months"; null for a one-time price. */
  interval: string | null;
}

/** "per month", "every 3 months"; "one time" for a price with no interval. */
export function intervalLabel(interval: string | null, intervalCount: number | null): string {
  if (!interval) return 'one time';
  const n = intervalCount ?? 1;
  return n === 1 ? `per ${interval}` : `every ${n} ${interval}s`;
}

/**
 * Names for the ids a console list shows (customer name and email, product name and price), in
 * two queries for a whole page, bounded by the seller.
 */
export async function labelsFor(db: Db, merchantId: string, ids: { customerIds: string[]; priceIds: string[] }) {
  const customerIds = [...new Set(ids.customerIds)];
  const priceIds = [...new Set(ids.priceIds)];
  const [customerRows, priceRows] = await Promise.all([
    customerIds.length
      ? db
          .select({ id: customers.id, name: customers.name, email: customers.email })
          .from(customers)
          .where(and(eq(customers.merchantId, merchantId), inArray(customers.id, customerIds)))
      : [],
    priceIds.length
      ? db
          .select({
            id: prices.id,
            price: prices,
            productName: products.name,
          })
          .from(prices)
          .innerJoin(products, eq(products.id, prices.productId))
          .where(and(eq(prices.merchantId, merchantId), inArray(prices.id, priceIds)))
      : [],
  ]);
  return {
    customers: new Map<string, CustomerLabel>(customerRows.map((c) => [c.id, { name: c.name, email: c.email }])),
    prices: new Map<string, PriceLabel>(
      priceRows.map((p) => [
        p.id,
        {
          productName: p.productName,
          amount: priceTerms(p.price),
          interval: p.price.interval ? intervalLabel(p.price.interval, p.price.intervalCount) : null,
        },
      ]),
    ),
  };
}
