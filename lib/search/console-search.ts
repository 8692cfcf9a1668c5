import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts, customers, events, paymentLinks, payments, subscriptions } from '../db/schema';

const LIMIT = 10;

/** `%` and `_` typed by a person are matched literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface ConsoleSearchResults {
  customers: { id: string; email: string | null; name: string | null; externalId: string | null }[];
  payments: { id: string; amount: number; currency: string; status: string; customerId: string; createdAt: Date }[];
  checkouts: { id: string; total: number; currency: string; status: string; paymentId: string | null; createdAt: Date }[];
  subscriptions: { id: string; status: string; customerId: string; priceId: string }[];
  paymentLinks: { id: string; name: string; status: string }[];
  events: { id: string; type: string; createdAt: Date }[];
}

/**
 * The console header's search, within one seller: customers by email (prefix, any case), name
 * (contains), id or external id; payments, checkouts, subscriptions, payment links and events
 * by id; and for an email, that customer's payments, subscriptions and events too.
 */
export async function searchConsole(db: Db, merchantId: string, rawQuery: string): Promise<ConsoleSearchResults> {
  const query = rawQuery.trim().slice(0, 200);
  const empty: ConsoleSearchResults = { customers: [], payments: [], checkouts: [], subscriptions: [], paymentLinks: [], events: [] };
  if (!query) return empty;
  const isEmail = query.includes('@');
  const found = await db
    .select({ id: customers.id, email: customers.email, name: customers.name, externalId: customers.externalId })
    .from(customers)
    .where(
      and(
        eq(customers.merchantId, merchantId),
        isEmail
          ? sql`lower(${customers.email}) like ${`${literal(query.toLowerCase())}%`}`
          : or(
              eq(customers.id, query),
              eq(customers.externalId, query),
              ilike(customers.name, `%${literal(query)}%`),
              sql`lower(${customers.email}) like ${`${literal(query.toLowerCase())}%`}`,
            ),
      ),
    )
    .orderBy(desc(customers.createdAt))
    .limit(LIMIT);
  const customerIds = isEmail ? found.map((c) => c.id) : [];

  const [paymentRows, checkoutRows, subscriptionRows, linkRows, eventRows] = await Promise.all([
    db
      .select({
        id: payments.id,
        amount: payments.amount,
        currency: payments.currency,
        status: payments.status,
        customerId: payments.customerId,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(and(eq(payments.merchantId, merchantId), or(eq(payments.id, query), customerIds.length ? inArray(payments.customerId, customerIds) : undefined)))
      .orderBy(desc(payments.createdAt))
      .limit(LIMIT),
    db
      .select({
        id: checkouts.id,
        total: checkouts.total,
        currency: checkouts.currency,
        status: checkouts.status,
        paymentId: checkouts.paymentId,
        createdAt: checkouts.createdAt,
      })
      .from(checkouts)
      .where(and(eq(checkouts.merchantId, merchantId), eq(checkouts.id, query)))
      .limit(LIMIT),
    db
      .select({ id: subscriptions.id, status: subscriptions.status, customerId: subscriptions.customerId, priceId: subscriptions.priceId })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.merchantId, merchantId),
          or(eq(subscriptions.id, query), customerIds.length ? inArray(subscriptions.customerId, customerIds) : undefined),
        ),
      )
      .orderBy(desc(subscriptions.createdAt))
      .limit(LIMIT),
    db
      .select({ id: paymentLinks.id, name: paymentLinks.name, status: paymentLinks.status })
      .from(paymentLinks)
      .where(and(eq(paymentLinks.merchantId, merchantId), or(eq(paymentLinks.id, query), eq(paymentLinks.token, query))))
      .limit(LIMIT),
    db
      .select({ id: events.id, type: events.type, createdAt: events.createdAt })
      .from(events)
      .where(and(eq(events.merchantId, merchantId), isEmail ? sql`lower(${events.data}->'object'->>'email') = ${query.toLowerCase()}` : eq(events.id, query)))
      .orderBy(desc(events.createdAt))
      .limit(LIMIT),
  ]);
  return { customers: found, payments: paymentRows, checkouts: checkoutRows, subscriptions: subscriptionRows, paymentLinks: linkRows, events: eventRows };
}
