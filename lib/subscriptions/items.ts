import { and, asc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { prices, subscriptionItems } from '../db/schema';
import { newId } from '../ids';
import { invalidField } from '../errors';
import { findPriceRow, type PriceRow } from '../catalog/prices';
import { checkItemPrice } from '../catalog/metered-items';

// The rule of which metered prices fit a subscription lives with the prices (a payment link checks it too).
export { resolveMeteredItems } from '../catalog/metered-items';

/**
 * A subscription's metered items: the metered prices whose usage it bills in arrears at each
 * period end (docs/subscriptions.md, "Metered items"). Its own price is one of them when it is
 * metered (a usage-only subscription); the others come from `items` at create.
 */

export type SubscriptionItemRow = typeof subscriptionItems.$inferSelect;

/** Most metered items a subscription may carry. */
export const MAX_SUBSCRIPTION_ITEMS = 20;

/** AddItem: a metered price joins a running subscription; it bills its feature's usage from `at`. */
export async function addSubscriptionItem(tx: Db, sub: { id: string; merchantId: string; priceId: string }, priceId: string, at: Date, validateOnly = false) {
  const main = await findPriceRow(tx, sub.merchantId, sub.priceId);
  const price = await findPriceRow(tx, sub.merchantId, priceId, 'priceId');
  const live = (await listSubscriptionItems(tx, sub.id)).map((item) => item.price);
  checkItemPrice(price, main, live, 'priceId');
  if (!validateOnly) await insertSubscriptionItems(tx, sub, [price.id], at);
}

/**
 * RemoveItem: the item stops billing at `at`; its usage until then is still billed at the
 * period end. The subscription's own price is not an item that can go (cancel instead).
 */
export async function removeSubscriptionItem(tx: Db, sub: { id: string; priceId: string }, priceId: string, at: Date, validateOnly = false) {
  if (priceId === sub.priceId) throw invalidField('priceId', `Price ${priceId} is the subscription's own price: cancel the subscription instead.`);
  const [item] = await tx
    .select()
    .from(subscriptionItems)
    .where(and(eq(subscriptionItems.subscriptionId, sub.id), eq(subscriptionItems.priceId, priceId), isNull(subscriptionItems.removedAt)));
  if (!item) throw invalidField('priceId', `Price ${priceId} is not an item of subscription ${sub.id}.`);
  if (!validateOnly) await tx.update(subscriptionItems).set({ removedAt: at }).where(eq(subscriptionItems.id, item.id));
}

/** Writes a new subscription's items (in phase 3 of its create, or at once for a trial). */
export async function insertSubscriptionItems(tx: Db, sub: { id: string; merchantId: string }, priceIds: string[], at: Date) {
  if (priceIds.length === 0) return;
  await tx
    .insert(subscriptionItems)
    .values(priceIds.map((priceId) => ({ id: newId('meteredItem'), merchantId: sub.merchantId, subscriptionId: sub.id, priceId, createdAt: at })));
}

/** A subscription's items with their prices, oldest first: the live ones, or all that were on it during `[from, to)`. */
export async function listSubscriptionItems(
  db: Db,
  subscriptionId: string,
  during?: { from: Date; to: Date },
): Promise<{ item: SubscriptionItemRow; price: PriceRow }[]> {
  const on = during
    ? and(lt(subscriptionItems.createdAt, during.to), or(isNull(subscriptionItems.removedAt), gt(subscriptionItems.removedAt, during.from)))
    : isNull(subscriptionItems.removedAt);
  return db
    .select({ item: subscriptionItems, price: prices })
    .from(subscriptionItems)
    .innerJoin(prices, eq(prices.id, subscriptionItems.priceId))
    .where(and(eq(subscriptionItems.subscriptionId, subscriptionId), on))
    .orderBy(asc(subscriptionItems.createdAt), asc(subscriptionItems.id));
}

export function toSubscriptionItemResponse({ item, price }: { item: SubscriptionItemRow; price: PriceRow }) {
  return { id: item.id, priceId: item.priceId, feature: price.feature!, createdAt: item.createdAt.toISOString() };
}
