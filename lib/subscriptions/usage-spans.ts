import { z } from 'zod';
import type { Db } from '../db/client';
import { config } from '../config';
import { parseDuration } from '../durations';
import { PeriodCharge, type SubscriptionRow } from './billing';
import { listSubscriptionItems } from './items';

/**
 * When a subscription's usage is billed (docs/subscriptions.md, "Billing usage in arrears"): a
 * period's usage is finalized, priced and pinned only `USAGE_GRACE_PERIOD` after the period ends,
 * so usage that arrives late within that window with a timestamp in the period is billed in it.
 */

/** The grace window after a period's end (or a subscription's end) before its usage is billed. */
export function usageGraceMs(): number {
  return parseDuration(config.subscriptions.usageGracePeriod);
}

/**
 * A renewal of a subscription with metered items as drafted at its boundary: the new period's
 * price in advance and its discount (credits and the ended period's usage are added when it is
 * charged, at `usageBillingDueAt`), and `usageFrom`, the start of the ended period whose usage it bills.
 */
export const RenewalDraft = PeriodCharge.extend({ usageFrom: z.coerce.date() });
export type RenewalDraft = z.output<typeof RenewalDraft>;

export function renewalDraftOf(sub: Pick<SubscriptionRow, 'renewalDraft'>): RenewalDraft | null {
  return sub.renewalDraft ? RenewalDraft.parse(sub.renewalDraft) : null;
}

export interface UsageSpan {
  /** The period the usage is in. */
  index: number;
  start: Date;
  end: Date;
}

/**
 * What an ending subscription has not billed yet: the ended period of a renewal still drafted
 * (its advance is never charged once the subscription ended), and the current period up to the
 * end. A trial's usage is free and usage while collection is paused is not billed.
 */
export function unbilledUsageSpans(sub: SubscriptionRow, endAt: Date): UsageSpan[] {
  const spans: UsageSpan[] = [];
  const draft = renewalDraftOf(sub);
  if (draft) spans.push({ index: draft.periodIndex - 1, start: draft.usageFrom, end: draft.periodStart });
  if (sub.currentPeriodIndex >= 0 && !sub.pausedAt && sub.currentPeriodStart < endAt) {
    spans.push({ index: sub.currentPeriodIndex, start: sub.currentPeriodStart, end: endAt < sub.currentPeriodEnd ? endAt : sub.currentPeriodEnd });
  }
  return spans;
}

/** Whether any of `spans` had a metered item on the subscription. */
export async function meteredDuring(tx: Db, subscriptionId: string, spans: { start: Date; end: Date }[]): Promise<boolean> {
  for (const span of spans) {
    if ((await listSubscriptionItems(tx, subscriptionId, { from: span.start, to: span.end })).length > 0) return true;
  }
  return false;
}
