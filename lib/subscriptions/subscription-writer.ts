import { and, eq, inArray, isNotNull, min } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, subscriptionBillingRecords, subscriptionChanges, subscriptions } from '../db/schema';
import type { SubscriptionChangeStatus, SubscriptionCommandType, SubscriptionStatus } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { changedAttributes, recordEvent } from '../events/record-event';
import { closeBillingRecord } from '../billing/billing-records';
import { recordEntitlementChanged } from '../usage/entitlement-changes';
import type { SubscriptionRow } from './billing';
import { toSubscriptionResponse, type ChangeRow } from './responses';
import { subscriptionChangeStateMachine, subscriptionStateMachine } from './subscription-states';
import { queueEndedEmail } from './lifecycle-email-jobs';
import { meteredDuring, unbilledUsageSpans, usageGraceMs } from './usage-spans';

/**
 * The one place a subscription row or a subscription change is written after it was inserted:
 * every status goes through its state machine (subscription-states.ts), so an illegal
 * transition answers 409 INVALID_STATE. Callers hold the subscription row locked (FOR UPDATE)
 * and pass the row as they read it, so the check in memory is the check of the stored status.
 */

/** Who made a change: `api_key:key_…`, `portal:cus_…`, `console:mer_…` or `system`. */
export type Actor = string;

/** A new subscription, in one of the machine's initial states (trialing, or active before its first charge). */
export async function insertSubscription(tx: Db, values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
  if (!subscriptionStateMachine.initial.includes(values.status)) throw new Error(`A subscription cannot start ${values.status}.`);
  const [row] = await tx.insert(subscriptions).values(values).returning();
  return row!;
}

async function updateSubscriptionRow(tx: Db, sub: SubscriptionRow, set: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  if (set.status !== undefined && set.status !== sub.status) {
    subscriptionStateMachine.assertTransition(sub.status, set.status, `Subscription ${sub.id}`);
  }
  const [row] = await tx.update(subscriptions).set(set).where(eq(subscriptions.id, sub.id)).returning();
  return row!;
}

/**
 * Bumps the version and writes the given fields; every change goes through here, and so does
 * its `subscription.updated` with the previous values of what changed.
 */
export async function writeSubscription(tx: Db, sub: SubscriptionRow, set: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  const row = await updateSubscriptionRow(tx, sub, { ...set, version: sub.version + 1, updatedAt: now() });
  await recordSubscriptionUpdated(tx, sub, row);
  return refreshNextAction(tx, row);
}

/**
 * A renewal moves the period (and takes the account credit it uses) in phase 1, before it
 * charges; the status it ends in is written in phase 3, with the version bump (writeSubscription).
 */
export function moveSubscriptionPeriod(
  tx: Db,
  sub: SubscriptionRow,
  period: Pick<SubscriptionRow, 'currentPeriodIndex' | 'currentPeriodStart' | 'currentPeriodEnd' | 'creditBalance'>,
) {
  return updateSubscriptionRow(tx, sub, period);
}

/**
 * A drafted renewal is charged now (renewals.ts): the draft leaves the row with the account credit
 * it uses, in phase 1 like a renewal's period move (phase 3 writes the status and the version).
 */
export function takeRenewalDraft(tx: Db, sub: SubscriptionRow, creditBalance: number) {
  return updateSubscriptionRow(tx, sub, { renewalDraft: null, usageBillingDueAt: null, creditBalance });
}

/** Usage billed on its own (a threshold, an ended subscription's last usage): nothing more is due, and the account credit it used is taken. */
export function takeUsageBilling(tx: Db, sub: SubscriptionRow, set: { creditBalance: number; renewalDraft?: null }) {
  return updateSubscriptionRow(tx, sub, { ...set, usageBillingDueAt: null });
}

/** A usage threshold was reached: usage billing is due at `at` (usage-thresholds.ts). */
export function markUsageBillingDue(tx: Db, sub: SubscriptionRow, at: Date) {
  return updateSubscriptionRow(tx, sub, { usageBillingDueAt: at });
}

/**
 * Part of creating a subscription: its first charge's outcome is unknown, so it starts
 * past_due (still version 1; the `subscription.created` that follows carries the status).
 */
export function startPastDue(tx: Db, sub: SubscriptionRow) {
  return updateSubscriptionRow(tx, sub, { status: 'past_due' });
}

/** `subscription.updated` with the previous values of what changed (nothing changed: no event). */
async function recordSubscriptionUpdated(tx: Db, before: SubscriptionRow, after: SubscriptionRow) {
  const previousAttributes = changedAttributes(toSubscriptionResponse(before), toSubscriptionResponse(after));
  if (Object.keys(previousAttributes).length === 0) return;
  await recordEvent(tx, { merchantId: after.merchantId, type: 'subscription.updated', object: toSubscriptionResponse(after), previousAttributes });
}

/**
 * Recomputes when something is next due: a scheduled change, a dunning retry, the period end, or
 * usage to bill (a drafted renewal, a threshold reached, an ended subscription's last usage).
 * `renewalsOnly`: the seller is suspended, so retries and scheduled changes are held until reinstatement.
 */
export async function refreshNextAction(tx: Db, sub: SubscriptionRow, options: { renewalsOnly?: boolean } = {}): Promise<SubscriptionRow> {
  let next: Date | null = null;
  const consider = (at: Date | null | undefined) => {
    if (at && (!next || at < next)) next = at;
  };
  if (sub.status !== 'ended') consider(sub.currentPeriodEnd);
  if (!options.renewalsOnly) consider(sub.usageBillingDueAt);
  if (sub.status !== 'ended' && !options.renewalsOnly) {
    const [retry] = await tx
      .select({ at: min(subscriptionBillingRecords.nextAttemptAt) })
      .from(subscriptionBillingRecords)
      .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), isNotNull(subscriptionBillingRecords.nextAttemptAt)));
    consider(retry?.at ? new Date(retry.at) : null);
    const [scheduled] = await tx
      .select({ at: min(subscriptionChanges.effectiveAt) })
      .from(subscriptionChanges)
      .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled')));
    consider(scheduled?.at ? new Date(scheduled.at) : null);
  }
  const value = next as Date | null;
  if ((value?.getTime() ?? null) === (sub.nextActionAt?.getTime() ?? null)) return sub;
  return updateSubscriptionRow(tx, sub, { nextActionAt: value });
}

/** Whether any billing record of the subscription is still open (in dunning or awaiting an unknown outcome). */
export async function hasOpenRecords(tx: Db, subscriptionId: string) {
  const [row] = await tx
    .select({ id: subscriptionBillingRecords.id })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(and(eq(subscriptionBillingRecords.subscriptionId, subscriptionId), eq(billingRecords.status, 'open')))
    .limit(1);
  return row !== undefined;
}

/** The state a subscription that is not canceled is in right now. */
export async function runningStatus(tx: Db, sub: SubscriptionRow, at: Date): Promise<SubscriptionStatus> {
  if (await hasOpenRecords(tx, sub.id)) return 'past_due';
  if (sub.currentPeriodIndex < 0 && sub.trialEnd && sub.trialEnd > at) return 'trialing';
  return 'active';
}

// ---------------------------------------------------------------------------------------------
// Changes (`subscription_changes`)

export async function recordChange(
  tx: Db,
  sub: SubscriptionRow,
  input: {
    type: SubscriptionCommandType;
    status?: Extract<SubscriptionChangeStatus, 'applied' | 'scheduled' | 'canceled'>;
    actor: Actor;
    reason?: string | null;
    effectiveAt: Date;
    fromPriceId?: string | null;
    toPriceId?: string | null;
    version: number | null;
    prorationAmount?: number | null;
  },
) {
  const status = input.status ?? 'applied';
  const [row] = await tx
    .insert(subscriptionChanges)
    .values({
      id: newId('subscriptionChange'),
      merchantId: sub.merchantId,
      subscriptionId: sub.id,
      type: input.type,
      status,
      fromPriceId: input.fromPriceId ?? null,
      toPriceId: input.toPriceId ?? null,
      actor: input.actor,
      reason: input.reason ?? null,
      effectiveAt: input.effectiveAt,
      version: input.version,
      prorationAmount: input.prorationAmount ?? null,
      createdAt: now(),
      appliedAt: status === 'applied' ? now() : null,
    })
    .returning();
  return row!;
}

/** A scheduled change applied now, with the version it produced. */
export async function markChangeApplied(tx: Db, change: ChangeRow, applied: { version: number; prorationAmount: number | null }): Promise<ChangeRow> {
  subscriptionChangeStateMachine.assertTransition(change.status, 'applied', `Subscription change ${change.id}`);
  const [row] = await tx
    .update(subscriptionChanges)
    .set({ status: 'applied', appliedAt: now(), version: applied.version, prorationAmount: applied.prorationAmount })
    .where(eq(subscriptionChanges.id, change.id))
    .returning();
  return row!;
}

/** A scheduled change that no longer applies is canceled, with why. */
export async function markChangeCanceled(tx: Db, change: ChangeRow, reason: string): Promise<ChangeRow> {
  subscriptionChangeStateMachine.assertTransition(change.status, 'canceled', `Subscription change ${change.id}`);
  const [row] = await tx.update(subscriptionChanges).set({ status: 'canceled', reason }).where(eq(subscriptionChanges.id, change.id)).returning();
  return row!;
}

// ---------------------------------------------------------------------------------------------
// The end

/**
 * → ended: open records void (or uncollectible), scheduled changes canceled, `subscription.ended`,
 * and the customer's "subscription ended" email queued.
 * Usage not billed yet (the last period's, a drafted renewal's) is billed after the grace window
 * by its own charge (final-usage.ts).
 */
export async function endSubscription(
  tx: Db,
  sub: SubscriptionRow,
  at: Date,
  actor: Actor,
  type: SubscriptionCommandType,
  openRecordsBecome: 'void' | 'uncollectible' = 'void',
) {
  const open = await tx
    .select({ link: subscriptionBillingRecords })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(billingRecords.status, 'open')));
  for (const { link } of open) {
    await closeBillingRecord(tx, sub.merchantId, link.billingRecordId, openRecordsBecome);
    await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
  }
  await tx
    .update(subscriptionChanges)
    .set({ status: 'canceled' })
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), inArray(subscriptionChanges.status, subscriptionChangeStateMachine.sourcesOf('canceled'))));
  const unbilled = unbilledUsageSpans(sub, at);
  const usageBillingDueAt = (await meteredDuring(tx, sub.id, unbilled)) ? new Date(at.getTime() + usageGraceMs()) : null;
  const updated = await writeSubscription(tx, sub, {
    status: 'ended',
    endedAt: at,
    cancelAtPeriodEnd: false,
    nextActionAt: null,
    usageBillingDueAt,
    renewalDraft: usageBillingDueAt ? sub.renewalDraft : null,
  });
  await recordChange(tx, updated, { type, actor, effectiveAt: at, version: updated.version });
  await recordEvent(tx, { merchantId: sub.merchantId, type: 'subscription.ended', object: toSubscriptionResponse(updated) });
  await queueEndedEmail(tx, sub.id, openRecordsBecome === 'uncollectible');
  await recordEntitlementChanged(tx, {
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    cause: 'subscription.ended',
    subscriptionId: sub.id,
    priceIds: [sub.priceId],
  });
  return updated;
}
