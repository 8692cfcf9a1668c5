import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, subscriptions } from '../db/schema';
import { withEventTime } from '../events/record-event';
import { findPriceRow } from '../catalog/prices';
import { defineMoneyMove, type KnownOutcome } from '../payments/money-moves';
import type { PaymentRow } from '../payments/payments';
import { productNameOf, resolveToken, type ActionStep, type SubscriptionRow } from './billing';
import { refreshNextAction, takeUsageBilling } from './subscription-writer';
import { planLateUsageLines, planUsageLines } from './usage-billing';
import { unbilledUsageSpans, type UsageSpan } from './usage-spans';
import {
  billsSomething,
  billUsageCharge,
  closeEndedUsageRecord,
  customerStillThere,
  pinUsageCharge,
  settleEndedUsageCharge,
  UsageCharge,
  usageChargeReductions,
} from './usage-charge';
import { NO_TAX } from '../tax/calculate';

/**
 * The last usage of a subscription that ended (canceled at its period end or at once, or ended
 * by dunning): billed after the grace window on a record of its own, charged to the saved card
 * once (docs/subscriptions.md, "When a subscription ends"). Usage of a drafted renewal the
 * subscription ended before charging is billed here too (the draft's advance is not).
 */

/** Phase 1, when the ended subscription's `usageBillingDueAt` has come (renewals.ts runs it). */
export async function billFinalUsage(tx: Db, sub: SubscriptionRow): Promise<ActionStep> {
  const spans = unbilledUsageSpans(sub, sub.endedAt ?? sub.currentPeriodEnd);
  const [customer] = await tx.select({ status: customers.status }).from(customers).where(eq(customers.id, sub.customerId));
  const usage = [];
  // The periods the record names: those with usage to bill (else the last one).
  const billed: UsageSpan[] = [];
  for (const span of spans) {
    const lines = (await planUsageLines(tx, sub, span)).filter(({ line }) => line.quantity > 0 || line.amount > 0);
    if (lines.length > 0) billed.push(span);
    usage.push(...lines);
  }
  if (spans.length > 0) usage.push(...(await planLateUsageLines(tx, sub, spans[0]!.start)));
  // Nothing to bill, or a customer archived since (never charged again): nothing is written.
  const bills = billsSomething(usage) && customer?.status === 'active';
  const reductions = bills ? await usageChargeReductions(tx, sub, usage) : { creditUsed: 0, tax: NO_TAX };
  const taken = await takeUsageBilling(tx, sub, { creditBalance: sub.creditBalance - reductions.creditUsed, renewalDraft: null });
  await refreshNextAction(tx, taken);
  if (!bills) return 'done';
  const price = await findPriceRow(tx, sub.merchantId, sub.priceId);
  const source = await resolveToken(tx, sub);
  const first = billed[0] ?? spans[spans.length - 1]!;
  const last = billed[billed.length - 1] ?? first;
  const plan: UsageCharge = {
    subscriptionId: sub.id,
    periodIndex: last.index,
    periodStart: first.start,
    periodEnd: last.end,
    currency: price.currency,
    description: `${await productNameOf(tx, price)} — final usage`,
    at: sub.usageBillingDueAt!,
    card: source.card,
    usage,
    ...reductions,
  };
  return pinUsageCharge(tx, finalUsageMove, taken, plan, source);
}

/** Phase 3: the final record with the outcome: paid, or uncollectible when declined (nothing dunns an ended subscription). */
async function applyFinalUsage(tx: Db, payment: PaymentRow, plan: UsageCharge, outcome: KnownOutcome): Promise<void> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId)).for('update');
  await withEventTime(sub!.testClockId ? plan.at : null, async () => {
    const billed = await billUsageCharge(tx, sub!, plan, payment, outcome);
    await closeEndedUsageRecord(tx, sub!, billed.link, billed.payment.status);
  });
}

export const finalUsageMove = defineMoneyMove<UsageCharge, void>({
  kind: 'subscription-final-usage',
  plan: UsageCharge,
  customerPresent: () => false,
  stillWanted: (db, plan) => customerStillThere(db, plan),
  apply: (tx, { payment, plan }, outcome) => applyFinalUsage(tx, payment, plan, outcome),
  recorded: async () => undefined,
  settle: (tx, { payment, plan }, outcome) => settleEndedUsageCharge(tx, payment, plan, outcome),
});
