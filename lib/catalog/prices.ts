import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { prices, products } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, recordUpdated } from '../events/record-event';
import { invalidField, notFound } from '../errors';
import { findProductRow } from './products';
import { requireTaxRates } from '../tax/tax-rates';
import type { CreatePriceBody } from './schemas';

export type PriceRow = typeof prices.$inferSelect;

export function toPriceResponse(row: PriceRow) {
  return {
    id: row.id,
    productId: row.productId,
    type: row.type,
    amount: row.amount,
    currency: row.currency,
    interval: row.interval,
    intervalCount: row.intervalCount,
    trialDays: row.trialDays,
    usageType: row.usageType,
    feature: row.feature,
    aggregation: row.aggregation,
    aggregationProperty: row.aggregationProperty,
    unitAmountDecimal: row.unitAmountDecimal,
    tiers: row.tiers,
    tiersMode: row.tiersMode,
    packageSize: row.packageSize,
    taxRateIds: row.taxRateIds,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createPrice(tx: Db, merchantId: string, input: z.output<typeof CreatePriceBody>) {
  await findProductRow(tx, merchantId, input.productId, 'productId');
  if (input.taxRateIds) await requireTaxRates(tx, merchantId, input.taxRateIds, 'taxRateIds');
  const recurring = input.type === 'Recurring';
  const metered = input.usageType === 'metered';
  const at = now();
  const [row] = await tx
    .insert(prices)
    .values({
      id: newId('price'),
      merchantId,
      productId: input.productId,
      type: input.type,
      amount: input.amount ?? 0,
      currency: input.currency,
      interval: recurring ? input.interval! : null,
      intervalCount: recurring ? (input.intervalCount ?? 1) : null,
      trialDays: recurring ? (input.trialDays ?? null) : null,
      usageType: input.usageType,
      feature: metered ? input.feature! : null,
      aggregation: metered ? (input.aggregation ?? 'sum') : null,
      aggregationProperty: input.aggregationProperty ?? null,
      unitAmountDecimal: input.unitAmountDecimal ?? null,
      tiers:
        input.tiers?.map((tier) => ({
          upTo: tier.upTo,
          unitAmount: tier.unitAmount ?? null,
          unitAmountDecimal: tier.unitAmountDecimal ?? null,
          flatAmount: tier.flatAmount ?? null,
        })) ?? null,
      tiersMode: input.tiersMode ?? null,
      packageSize: input.packageSize ?? null,
      taxRateIds: input.taxRateIds ?? [],
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const price = toPriceResponse(row!);
  await recordEvent(tx, { merchantId, type: 'price.created', object: price });
  return price;
}

export async function findPriceRow(db: Db, merchantId: string, priceId: string, fieldPath?: string): Promise<PriceRow> {
  const [row] = await db
    .select()
    .from(prices)
    .where(and(eq(prices.id, priceId), eq(prices.merchantId, merchantId)));
  if (!row) throw notFound('price', priceId, fieldPath);
  return row;
}

/** A price and the name of its product, in one query. */
export async function findPriceWithProductName(db: Db, merchantId: string, priceId: string, fieldPath?: string): Promise<PriceRow & { productName: string }> {
  const [row] = await db
    .select({ price: prices, productName: products.name })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(prices.id, priceId), eq(prices.merchantId, merchantId)));
  return priceWithProductName(row, priceId, fieldPath);
}

/** A price with its product's name, from a row a caller's statement read (404 when there is none). */
export function priceWithProductName(
  row: { price: PriceRow | null; productName: string | null } | undefined,
  priceId: string,
  fieldPath?: string,
): PriceRow & { productName: string } {
  if (!row?.price || row.productName === null) throw notFound('price', priceId, fieldPath);
  return { ...row.price, productName: row.productName };
}

/** What a price bills in advance each period: a metered price bills nothing in advance (its usage in arrears). */
export function advanceAmount(price: PriceRow): number {
  return price.usageType === 'metered' ? 0 : price.amount;
}

/** A metered price bills usage in arrears: it cannot be bought, linked to or charged in advance. */
export function refuseMetered(price: PriceRow, field: string) {
  if (price.usageType === 'metered') {
    throw invalidField(field, `Price ${price.id} is metered: its usage is billed in arrears on a subscription, so it cannot be bought or charged up front.`);
  }
}

export async function getPrice(db: Db, merchantId: string, priceId: string) {
  return toPriceResponse(await findPriceRow(db, merchantId, priceId));
}

export async function listPrices(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'amount'; productId?: string; active?: boolean; type?: 'OneTime' | 'Recurring' },
) {
  const page = await paginate(db, prices, {
    ...query,
    scope: [eq(prices.merchantId, merchantId)],
    where: [
      query.productId ? eq(prices.productId, query.productId) : undefined,
      query.active === undefined ? undefined : eq(prices.active, query.active),
      query.type ? eq(prices.type, query.type) : undefined,
    ],
    orderBy: [query.orderBy === 'amount' ? prices.amount : prices.createdAt, prices.id],
  });
  return mapPage(page, toPriceResponse);
}

/** What a price may change after creation: whether it sells, and its tax rates (for charges planned from now on). */
export async function updatePrice(tx: Db, merchantId: string, priceId: string, change: { active?: boolean; taxRateIds?: string[] }) {
  const current = await findPriceRow(tx, merchantId, priceId);
  if (change.taxRateIds) await requireTaxRates(tx, merchantId, change.taxRateIds, 'taxRateIds');
  const [row] = await tx
    .update(prices)
    .set({ ...change, updatedAt: now() })
    .where(and(eq(prices.id, priceId), eq(prices.merchantId, merchantId)))
    .returning();
  const price = toPriceResponse(row!);
  await recordUpdated(tx, { merchantId, type: 'price.updated', before: toPriceResponse(current), after: price });
  return price;
}

/** The seller's active recurring prices with their product's name, for the console's New subscription form. */
export async function listRecurringPrices(db: Db, merchantId: string) {
  const rows = await db
    .select({ price: prices, productName: products.name })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(prices.merchantId, merchantId), eq(prices.active, true), eq(prices.type, 'Recurring')))
    .orderBy(products.name, prices.createdAt);
  return rows.map(({ price, productName }) => ({ ...price, productName }));
}
