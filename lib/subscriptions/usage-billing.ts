import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { findPriceWithProductName, type PriceRow } from '../catalog/prices';
import type { BilledUsage } from '../billing/line-items';
import { aggregatePeriodUsage } from '../usage/period-usage';
import { priceUsage, type MeteredPricing } from '../usage/pricing';
import { listSubscriptionItems, type SubscriptionItemRow } from './items';

/**
 * Usage billed in arrears (docs/subscriptions.md, "Billing usage in arrears"): each metered
 * item's usage in a period becomes a `usage` line naming that period, priced once and pinned in
 * the plan of the charge that bills it (the money move never prices it again). A period may be
 * billed more than once (a threshold reached, late usage after it was finalized): each line is
 * the difference between what the period's usage costs now and what its lines already billed.
 */

const UsageTier = z.object({
  tier: z.number().int(),
  upTo: z.number().int().nullable(),
  quantity: z.number().int(),
  unitAmountDecimal: z.string(),
  flatAmount: z.number().int(),
  amountDecimal: z.string(),
});

/** One metered item's usage line as pinned in a period charge's plan. */
export const PinnedUsage = z.object({
  line: z.object({
    kind: z.literal('usage'),
    description: z.string(),
    priceId: z.string(),
    quantity: z.number().int(),
    unitAmount: z.number().int(),
    amount: z.number().int(),
    feature: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    unitAmountDecimal: z.string().optional(),
    tiers: z.array(UsageTier).optional(),
  }),
  creditAmount: z.number().int(),
  creditedUnits: z.number().int(),
}) satisfies z.ZodType<BilledUsage>;
export type PinnedUsage = z.output<typeof PinnedUsage>;

function pricingOf(price: PriceRow): MeteredPricing {
  return { amount: price.amount, unitAmountDecimal: price.unitAmountDecimal, tiers: price.tiers, tiersMode: price.tiersMode, packageSize: price.packageSize };
}

type Subscriber = { id: string; merchantId: string; customerId: string };

/** What a subscription's billing records (void ones left out) already billed for one item's usage in one period. */
export interface BilledSoFar {
  quantity: number;
  amount: number;
  /** What that usage's credit lines took off, and the units they paid. */
  creditAmount: number;
  creditedUnits: number;
  /** Whether any line billed it (a line of quantity 0 included): the period was finalized for the item. */
  billed: boolean;
}

/**
 * Billed so far for an item (its price) and a period, by the `periodStart` its lines name (the
 * later of the period's start and the item's): the sum of the subscription's usage lines and
 * usage credit lines for it on records that are not void.
 */
export async function billedUsageSoFar(db: Db, sub: Subscriber, priceId: string, periodStart: Date): Promise<BilledSoFar> {
  const result = await db.execute<{ lines: string; quantity: string; amount: string; credit: string; credited_units: string }>(sql`
    select count(*) filter (where l->>'kind' = 'usage') as lines,
      coalesce(sum((l->>'quantity')::bigint) filter (where l->>'kind' = 'usage'), 0) as quantity,
      coalesce(sum((l->>'amount')::bigint) filter (where l->>'kind' = 'usage'), 0) as amount,
      coalesce(-sum((l->>'amount')::bigint) filter (where l->>'kind' = 'credit'), 0) as credit,
      coalesce(sum((l->>'quantity')::bigint) filter (where l->>'kind' = 'credit'), 0) as credited_units
    from billing_records r cross join lateral jsonb_array_elements(r.line_items) l
    where r.merchant_id = ${sub.merchantId} and r.subscription_id = ${sub.id} and r.status <> 'void'
      and l->>'kind' in ('usage', 'credit') and l->>'priceId' = ${priceId} and (l->>'periodStart')::timestamptz = ${periodStart.toISOString()}::timestamptz`);
  const row = result.rows[0]!;
  return {
    quantity: Number(row.quantity),
    amount: Number(row.amount),
    creditAmount: Number(row.credit),
    creditedUnits: Number(row.credited_units),
    billed: Number(row.lines) > 0,
  };
}

/**
 * One item's usage line for `[from, to)`: what its usage costs now less what was billed for it
 * already (`billedUsageSoFar`), never below zero (usage reversed after it was billed is not
 * refunded by a later line). Units that usage credits paid for when recorded (a `sum` price's
 * credit draws, earliest expiry first) are valued at what they add to the line and shown as a
 * credit. Null when `keepEmpty` is off and there is nothing more to bill.
 */
async function usageLine(
  tx: Db,
  sub: Subscriber,
  { price, from, to }: { price: PriceRow; from: Date; to: Date },
  keepEmpty: boolean,
): Promise<PinnedUsage | null> {
  const feature = price.feature!;
  const usage = await aggregatePeriodUsage(tx, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    feature,
    from,
    to,
    aggregation: price.aggregation ?? 'sum',
    property: price.aggregationProperty,
  });
  const pricing = pricingOf(price);
  const charge = priceUsage(pricing, usage.quantity);
  // Credit draws count units of the records themselves, so they pay a `sum` of quantities only.
  const creditedUnits = price.aggregation === 'sum' ? Math.min(usage.creditedUnits, usage.quantity) : 0;
  const creditValue = creditedUnits > 0 ? charge.amount - priceUsage(pricing, usage.quantity - creditedUnits).amount : 0;
  const before = await billedUsageSoFar(tx, sub, price.id, from);
  const newlyCredited = Math.max(0, creditedUnits - before.creditedUnits);
  const quantity = Math.max(0, usage.quantity - before.quantity);
  const amount = Math.max(0, charge.amount - before.amount);
  if (!keepEmpty && quantity === 0 && amount === 0) return null;
  const creditAmount = Math.min(amount, Math.max(0, creditValue - before.creditAmount));
  const { productName } = await findPriceWithProductName(tx, sub.merchantId, price.id);
  const perUnit = !price.unitAmountDecimal && !price.tiers && !price.packageSize;
  return {
    line: {
      kind: 'usage',
      description: `${productName} — ${feature} usage`,
      priceId: price.id,
      quantity,
      unitAmount: perUnit ? price.amount : 0,
      amount,
      feature,
      periodStart: from.toISOString(),
      periodEnd: to.toISOString(),
      ...(price.unitAmountDecimal ? { unitAmountDecimal: price.unitAmountDecimal } : {}),
      // The tier breakdown describes a whole period's quantity: a later difference line has none.
      ...(price.tiers && !before.billed ? { tiers: charge.tiers } : {}),
    },
    creditAmount,
    creditedUnits: creditAmount > 0 ? Math.min(quantity, newlyCredited) : 0,
  };
}

/** The part of `[period.start, period.end)` an item was on the subscription. */
function itemSpan(item: SubscriptionItemRow, period: { start: Date; end: Date }) {
  const from = new Date(Math.max(item.createdAt.getTime(), period.start.getTime()));
  const to = item.removedAt && item.removedAt < period.end ? item.removedAt : period.end;
  return { from, to };
}

/**
 * The usage lines of a subscription's period `[start, end)` (an ended period, the current one so
 * far, or the last one up to the subscription's end): per metered item on it during the period,
 * its usage of its feature aggregated as the price says (reversed usage left out), priced by
 * lib/usage/pricing.ts, less what was billed for it already (a threshold). An item added or
 * removed during the period bills the part it was on. Every item has a line, of 0 if nothing more.
 */
export async function planUsageLines(tx: Db, sub: Subscriber, period: { start: Date; end: Date }): Promise<PinnedUsage[]> {
  const items = await listSubscriptionItems(tx, sub.id, { from: period.start, to: period.end });
  const lines: PinnedUsage[] = [];
  for (const { item, price } of items) {
    const line = await usageLine(tx, sub, { price, ...itemSpan(item, period) }, true);
    if (line) lines.push(line);
  }
  return lines;
}

/**
 * Late usage: lines for periods finalized before `before` (their usage billed, a line of 0
 * included) whose usage grew since, each naming its own period and billing only the difference.
 * A period that was never billed for an item (a trial, collection paused) gets no late line.
 */
export async function planLateUsageLines(tx: Db, sub: Subscriber, before: Date): Promise<PinnedUsage[]> {
  const result = await tx.execute<{ price_id: string; period_start: Date | string; period_end: Date | string }>(sql`
    with billed as (
      select l->>'priceId' as price_id, (l->>'periodStart')::timestamptz as period_start, max((l->>'periodEnd')::timestamptz) as period_end
      from billing_records r cross join lateral jsonb_array_elements(r.line_items) l
      where r.merchant_id = ${sub.merchantId} and r.subscription_id = ${sub.id} and r.status <> 'void' and l->>'kind' = 'usage'
      group by 1, 2
    )
    select b.price_id, b.period_start, b.period_end from billed b join prices p on p.id = b.price_id
    where b.period_end <= ${before.toISOString()}::timestamptz and exists (
      select 1 from usage_records u where u.merchant_id = ${sub.merchantId} and u.customer_id = ${sub.customerId} and u.feature = p.feature
        and u.timestamp >= b.period_start and u.timestamp < b.period_end and u.reversed_at is null)
    order by b.period_start, b.price_id`);
  const lines: PinnedUsage[] = [];
  for (const row of result.rows) {
    const price = await findPriceWithProductName(tx, sub.merchantId, row.price_id);
    const line = await usageLine(tx, sub, { price, from: new Date(row.period_start), to: new Date(row.period_end) }, false);
    if (line) lines.push(line);
  }
  return lines;
}

/** What the usage lines add to a charge, after their credits. */
export function usageAmountDue(lines: readonly PinnedUsage[]): number {
  return lines.reduce((sum, { line, creditAmount }) => sum + line.amount - creditAmount, 0);
}
