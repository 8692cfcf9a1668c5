import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentLinks } from '../db/schema';
import { now } from '../clock';
import { recordEvent, type EventInput } from '../events/record-event';
import { ApiError } from '../errors';
import { findPaymentLinkRow, paymentLinkStatus, toPaymentLinkResponse, unpayableReason, type PaymentLinkRow } from './payment-links';
import { paymentLinkStateMachine } from './payment-link-states';

/**
 * A link's completions as its checkouts are paid: a slot taken before the charge (so
 * `maxCompletions` holds under concurrent checkouts), given back when the payment fails, and the
 * `payment_link.completed` event when it succeeds.
 */
const COMPLETED = 'completed';
const ACTIVE = 'active';
/** The used-up link a released slot reopens. */
const REOPENS = paymentLinkStateMachine.sourcesOf(ACTIVE, [COMPLETED]);

/**
 * Takes one completion slot for a payment about to be attempted. The conditional update locks
 * the row, so concurrent checkouts queue here and `maxCompletions` can never be exceeded.
 */
export async function reservePaymentLinkCompletion(tx: Db, row: PaymentLinkRow): Promise<PaymentLinkRow> {
  const at = now();
  const [reserved] = await tx
    .update(paymentLinks)
    .set({
      completionCount: sql`${paymentLinks.completionCount} + 1`,
      status: sql`case when ${paymentLinks.maxCompletions} is not null and ${paymentLinks.completionCount} + 1 >= ${paymentLinks.maxCompletions} then ${COMPLETED} else ${paymentLinks.status} end`,
      updatedAt: at,
    })
    .where(
      and(
        eq(paymentLinks.id, row.id),
        // Only a link that may become completed takes a slot (an unexpired active one).
        inArray(paymentLinks.status, paymentLinkStateMachine.sourcesOf(COMPLETED)),
        or(isNull(paymentLinks.expiresAt), gt(paymentLinks.expiresAt, at)),
        or(isNull(paymentLinks.maxCompletions), lt(paymentLinks.completionCount, paymentLinks.maxCompletions)),
      ),
    )
    .returning();
  if (reserved) return reserved;
  const [latest] = await tx.select().from(paymentLinks).where(eq(paymentLinks.id, row.id));
  throw new ApiError('INVALID_STATE', unpayableReason(latest!, at) ?? 'This payment link cannot be paid right now.', {
    extra: { state: paymentLinkStatus(latest!, at) },
  });
}

/** Gives the slot back when the payment failed; a link used up by that slot reopens. */
export async function releasePaymentLinkCompletion(tx: Db, paymentLinkId: string): Promise<void> {
  await tx
    .update(paymentLinks)
    .set({
      completionCount: sql`greatest(${paymentLinks.completionCount} - 1, 0)`,
      status: sql`case when ${inArray(paymentLinks.status, REOPENS)} then ${ACTIVE} else ${paymentLinks.status} end`,
      updatedAt: now(),
    })
    .where(eq(paymentLinks.id, paymentLinkId));
}

export async function recordPaymentLinkCompleted(
  tx: Db,
  merchantId: string,
  paymentLinkId: string,
  completion: { checkoutId: string; paymentId: string | null },
) {
  await recordEvent(tx, await paymentLinkCompletedEvent(tx, merchantId, paymentLinkId, completion));
}

/** The `payment_link.completed` event of a paid checkout of the link (the link as it is now, plus the checkout and payment). */
export async function paymentLinkCompletedEvent(
  tx: Db,
  merchantId: string,
  paymentLinkId: string,
  completion: { checkoutId: string; paymentId: string | null },
): Promise<EventInput> {
  const row = await findPaymentLinkRow(tx, merchantId, paymentLinkId);
  return { merchantId, type: 'payment_link.completed', object: { ...toPaymentLinkResponse(row), ...completion } };
}
