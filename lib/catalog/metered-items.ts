import type { Db } from '../db/client';
import { ApiError, invalidField } from '../errors';
import { findPriceRow, type PriceRow } from './prices';

/*
 * Which metered prices may be billed, in arrears, beside a subscription's price (docs/subscriptions.md,
 * "Metered items"): checked when a subscription is created with `items`, on AddItem, and when a
 * payment link names the items its checkout's subscription will carry.
 */

/**
 * The metered prices a new subscription on `main` bills: `main` itself when metered, then each
 * of `items` (`checkItemPrice`). 400 names the item.
 */
export async function resolveMeteredItems(tx: Db, merchantId: string, main: PriceRow, items: { priceId: string }[]): Promise<PriceRow[]> {
  const chosen: PriceRow[] = main.usageType === 'metered' ? [main] : [];
  for (const [index, item] of items.entries()) {
    const field = `items.${index}.priceId`;
    const price = await findPriceRow(tx, merchantId, item.priceId, field);
    checkItemPrice(price, main, chosen, field);
    chosen.push(price);
  }
  return chosen;
}

/**
 * An item must be an active metered price in the subscription price's currency and cadence,
 * for another price and another feature than the items it joins (the same usage is never billed
 * twice).
 */
export function checkItemPrice(price: PriceRow, main: PriceRow, others: PriceRow[], field: string) {
  if (price.usageType !== 'metered') throw invalidField(field, `Price ${price.id} is licensed: items are metered prices; the licensed price is priceId.`);
  if (!price.active) throw new ApiError('INVALID_STATE', `Price ${price.id} is inactive and cannot be subscribed to.`);
  if (price.currency !== main.currency) throw invalidField(field, `Price ${price.id} is in ${price.currency} but the subscription bills in ${main.currency}.`);
  if (price.interval !== main.interval || (price.intervalCount ?? 1) !== (main.intervalCount ?? 1)) {
    throw invalidField(
      field,
      `Price ${price.id} renews every ${price.intervalCount ?? 1} ${price.interval} but the subscription every ${main.intervalCount ?? 1} ${main.interval}.`,
    );
  }
  if (others.some((other) => other.id === price.id)) throw invalidField(field, `Price ${price.id} is already on the subscription.`);
  const sameFeature = others.find((other) => other.feature === price.feature);
  if (sameFeature) throw invalidField(field, `Price ${sameFeature.id} already bills feature '${price.feature}': each feature is billed by one item.`);
}
