import { and, asc, desc, eq } from 'drizzle-orm';
import { selectTax } from '../tax/tax-selection';
import type { Db } from '../db/client';
import { billingRecords, subscriptionBillingRecords, subscriptionChanges, subscriptions } from '../db/schema';
import type { SubscriptionStatus } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { notFound } from '../errors';
import { advanceAmount, findPriceRow } from '../catalog/prices';
import { listSubscriptionItems, toSubscriptionItemResponse } from './items';
import { renewalQuote } from './discounts';
import { toChangeResponse, toSubscriptionRecordResponse, toSubscriptionResponse } from './responses';

/** Reading subscriptions: one (with its detail), lists, changes and billing records. */

export async function findSubscriptionRow(db: Db, merchantId: string, subscriptionId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('subscription', subscriptionId);
  return row;
}

/** A change row by id (a scheduled change a pinned proration names). */
export async function findChangeRow(db: Db, changeId: string) {
  const [row] = await db.select().from(subscriptionChanges).where(eq(subscriptionChanges.id, changeId));
  return row ?? null;
}

export async function listSubscriptionBillingRecords(db: Db, subscriptionId: string, limit = 100) {
  const rows = await db
    .select({ link: subscriptionBillingRecords, record: billingRecords })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(eq(subscriptionBillingRecords.subscriptionId, subscriptionId))
    .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
    .limit(limit);
  return rows.map((row) => toSubscriptionRecordResponse(row.link, row.record));
}

export async function getSubscriptionDetail(db: Db, merchantId: string, subscriptionId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const [latest] = await listSubscriptionBillingRecords(db, sub.id, 1);
  const scheduled = await db
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled')))
    .orderBy(asc(subscriptionChanges.effectiveAt));
  const price = await findPriceRow(db, merchantId, sub.priceId);
  const items = await listSubscriptionItems(db, sub.id);
  const renews = sub.status !== 'ended' && sub.status !== 'canceled' && !sub.cancelAtPeriodEnd && !sub.pausedAt;
  return {
    ...toSubscriptionResponse(sub),
    items: items.map(toSubscriptionItemResponse),
    latestBillingRecord: latest ?? null,
    upcomingRenewal: renews
      ? renewalQuote(sub, { id: price.id, amount: advanceAmount(price) }, { tax: await selectTax(db, merchantId, sub.customerId, [price.id]) })
      : null,
    scheduledChanges: scheduled.map(toChangeResponse),
  };
}

export async function listSubscriptions(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'currentPeriodEnd'; customerId?: string; priceId?: string; status?: SubscriptionStatus },
) {
  const page = await paginate(db, subscriptions, {
    ...query,
    scope: [eq(subscriptions.merchantId, merchantId)],
    where: [
      query.customerId ? eq(subscriptions.customerId, query.customerId) : undefined,
      query.priceId ? eq(subscriptions.priceId, query.priceId) : undefined,
      query.status ? eq(subscriptions.status, query.status) : undefined,
    ],
    orderBy: [query.orderBy === 'currentPeriodEnd' ? subscriptions.currentPeriodEnd : subscriptions.createdAt, subscriptions.id],
  });
  return mapPage(page, toSubscriptionResponse);
}

export async function listSubscriptionChanges(
  db: Db,
  merchantId: string,
  subscriptionId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'effectiveAt' },
) {
  await findSubscriptionRow(db, merchantId, subscriptionId);
  const page = await paginate(db, subscriptionChanges, {
    ...query,
    scope: [eq(subscriptionChanges.subscriptionId, subscriptionId), eq(subscriptionChanges.merchantId, merchantId)],
    where: [],
    orderBy: [query.orderBy === 'effectiveAt' ? subscriptionChanges.effectiveAt : subscriptionChanges.createdAt, subscriptionChanges.id],
  });
  return mapPage(page, toChangeResponse);
}
