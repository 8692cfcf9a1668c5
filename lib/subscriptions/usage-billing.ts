import { z } from 'zod';
import type { Db } from '../db/client';
import { findPriceWithProductName, type PriceRow } from '../catalog/prices';
import type { BilledUsage } from '../billing/line-items';
import { aggregatePeriodUsage } from '../usage/period-usage';
import { priceUsage, type MeteredPricing } from '../usage/pricing';
import { listSubscriptionItems } from './items';

/**
 * Usage billed in arrears (docs/subscriptions.md, "Billing usage in arrears"): at a renewal, each
 * metered item's usage in the period that just ended becomes a `usage` line, priced once and
 * pinned in the renewal's plan with the rest of the charge (the money move never prices it again).
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

/**
 * The usage lines of a subscription's ended period `[start, end)`: per metered item, the
 * customer's usage of its feature aggregated as the price says (reversed usage left out), priced
 * by lib/usage/pricing.ts. Units that usage credits paid for when recorded (a `sum` price's credit
 * draws, earliest expiry first) are valued at what they add to the line and shown as a credit.
 */
export async function planUsageLines(
  tx: Db,
  sub: { id: string; merchantId: string; customerId: string },
  period: { start: Date; end: Date },
): Promise<PinnedUsage[]> {
  const items = await listSubscriptionItems(tx, sub.id, { from: period.start, to: period.end });
  const lines: PinnedUsage[] = [];
  for (const { item, price } of items) {
    const feature = price.feature!;
    // An item added or removed during the period bills the usage of the part it was on.
    const from = new Date(Math.max(item.createdAt.getTime(), period.start.getTime()));
    const to = item.removedAt && item.removedAt < period.end ? item.removedAt : period.end;
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
    const creditAmount = creditedUnits > 0 ? charge.amount - priceUsage(pricing, usage.quantity - creditedUnits).amount : 0;
    const { productName } = await findPriceWithProductName(tx, sub.merchantId, price.id);
    const perUnit = !price.unitAmountDecimal && !price.tiers && !price.packageSize;
    lines.push({
      line: {
        kind: 'usage',
        description: `${productName} — ${feature} usage`,
        priceId: price.id,
        quantity: usage.quantity,
        unitAmount: perUnit ? price.amount : 0,
        amount: charge.amount,
        feature,
        periodStart: from.toISOString(),
        periodEnd: to.toISOString(),
        ...(price.unitAmountDecimal ? { unitAmountDecimal: price.unitAmountDecimal } : {}),
        ...(price.tiers ? { tiers: charge.tiers } : {}),
      },
      creditAmount,
      creditedUnits,
    });
  }
  return lines;
}

/** What the usage lines add to a charge, after their credits. */
export function usageAmountDue(lines: readonly PinnedUsage[]): number {
  return lines.reduce((sum, { line, creditAmount }) => sum + line.amount - creditAmount, 0);
}
