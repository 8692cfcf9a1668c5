import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { prices, subscriptionItems } from '../db/schema';
import { newId } from '../ids';
import { ApiError, invalidField } from '../http/errors';
import { findPriceRow, type PriceRow } from '../catalog/prices';

/**
 * A subscription's metered items: the metered prices whose usage it bills in arrears at each
 * period end (docs/subscriptions.md, "Metered items"). Its own price is one of them when it is
 * metered (a usage-only subscription); the others come from `items` at create.
 */

export type SubscriptionItemRow = typeof subscriptionItems.$inferSelect;

/** Most metered items a subscription may carry. */
export const MAX_SUBSCRIPTION_ITEMS = 20;

/**
 * The metered prices a new subscription on `main` bills: `main` itself when metered, then each
 * of `items`, which must be active metered prices in `main`'s currency and cadence, each for
 * another price and another feature (the same usage is never billed twice). 400 names the item.
 */
export async function resolveMeteredItems(tx: Db, merchantId: string, main: PriceRow, items: { priceId: string }[]): Promise<PriceRow[]> {
  const chosen: PriceRow[] = main.usageType === 'metered' ? [main] : [];
  for (const [index, item] of items.entries()) {
    const field = `items.${index}.priceId`;
    const price = await findPriceRow(tx, merchantId, item.priceId, field);
    if (price.usageType !== 'metered') throw invalidField(field, `Price ${price.id} is licensed: items are metered prices; the licensed price is priceId.`);
    if (!price.active) throw new ApiError('INVALID_STATE', `Price ${price.id} is inactive and cannot be subscribed to.`);
    if (price.currency !== main.currency)
      throw invalidField(field, `Price ${price.id} is in ${price.currency} but the subscription bills in ${main.currency}.`);
    if (price.interval !== main.interval || (price.intervalCount ?? 1) !== (main.intervalCount ?? 1)) {
      throw invalidField(
        field,
        `Price ${price.id} renews every ${price.intervalCount ?? 1} ${price.interval} but the subscription every ${main.intervalCount ?? 1} ${main.interval}.`,
      );
    }
    if (chosen.some((other) => other.id === price.id)) throw invalidField(field, `Price ${price.id} is already on the subscription.`);
    const sameFeature = chosen.find((other) => other.feature === price.feature);
    if (sameFeature) throw invalidField(field, `Price ${sameFeature.id} already bills feature '${price.feature}': each feature is billed by one item.`);
    chosen.push(price);
  }
  return chosen;
}

/** Writes a new subscription's items (in phase 3 of its create, or at once for a trial). */
export async function insertSubscriptionItems(tx: Db, sub: { id: string; merchantId: string }, priceIds: string[], at: Date) {
  if (priceIds.length === 0) return;
  await tx
    .insert(subscriptionItems)
    .values(priceIds.map((priceId) => ({ id: newId('meteredItem'), merchantId: sub.merchantId, subscriptionId: sub.id, priceId, createdAt: at })));
}

/** A subscription's items with their prices, oldest first. */
export async function listSubscriptionItems(db: Db, subscriptionId: string): Promise<{ item: SubscriptionItemRow; price: PriceRow }[]> {
  return db
    .select({ item: subscriptionItems, price: prices })
    .from(subscriptionItems)
    .innerJoin(prices, eq(prices.id, subscriptionItems.priceId))
    .where(eq(subscriptionItems.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionItems.createdAt), asc(subscriptionItems.id));
}

export function toSubscriptionItemResponse({ item, price }: { item: SubscriptionItemRow; price: PriceRow }) {
  return { id: item.id, priceId: item.priceId, feature: price.feature!, createdAt: item.createdAt.toISOString() };
}
