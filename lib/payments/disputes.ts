import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { disputes, type DisputeStatus, type payments } from '../db/schema';
import { mapPage, paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { notFound } from '../errors';
import { changedAttributes, recordEvent } from '../events/record-event';
import type { ProcessorDispute } from './processor/stripe-disputes';
import { toDisputeResponse, type DisputeRow } from './dispute-response';
import { CLOSED_DISPUTE_STATUSES, disputeStateMachine } from './dispute-states';

type DisputedPayment = Pick<typeof payments.$inferSelect, 'id' | 'merchantId' | 'processor'>;

export async function findDisputeRow(db: Db, merchantId: string, disputeId: string): Promise<DisputeRow> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, disputeId), eq(disputes.merchantId, merchantId)));
  if (!row) throw notFound('dispute', disputeId);
  return row;
}

export async function getDispute(db: Db, merchantId: string, disputeId: string) {
  return toDisputeResponse(await findDisputeRow(db, merchantId, disputeId));
}

export async function listDisputes(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'amount'; status?: DisputeStatus; paymentId?: string },
) {
  const page = await paginate(db, disputes, {
    ...query,
    scope: [eq(disputes.merchantId, merchantId)],
    where: [query.status ? eq(disputes.status, query.status) : undefined, query.paymentId ? eq(disputes.paymentId, query.paymentId) : undefined],
    orderBy: [query.orderBy === 'amount' ? disputes.amount : disputes.createdAt, disputes.id],
  });
  return mapPage(page, toDisputeResponse);
}

/** A payment's disputes, oldest first (GET /api/Payment/{id} and the console's payment page). */
export async function disputesOfPayment(db: Db, merchantId: string, paymentId: string) {
  const rows = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.paymentId, paymentId), eq(disputes.merchantId, merchantId)))
    .orderBy(disputes.createdAt, disputes.id);
  return rows.map(toDisputeResponse);
}

export const isClosedDispute = (status: DisputeStatus) => (CLOSED_DISPUTE_STATUSES as readonly DisputeStatus[]).includes(status);

/**
 * What `stale` means: the state read from the processor is older than the one stored (another
 * read overtook it), so nothing is written. `unknown_status`: a status Paybase does not know.
 */
export type DisputeChange = 'created' | 'updated' | 'closed' | 'unchanged' | 'stale' | 'unknown_status';

/**
 * Writes the processor's current state of a dispute of `payment`, with its event, in the
 * caller's transaction: the first sight makes the row (`dispute.created`, and `dispute.closed`
 * when it is already decided), a move to a closing state is `dispute.closed`, any other change
 * `dispute.updated` (with `previousAttributes`), the same state again nothing. Whatever order
 * the webhooks come in, each call writes what the processor says now (docs/processors.md, "Disputes").
 */
export async function recordProcessorDispute(
  tx: Db,
  payment: DisputedPayment,
  reported: ProcessorDispute,
): Promise<{ row: DisputeRow | undefined; change: DisputeChange }> {
  const status = reported.status;
  if (!status) return { row: undefined, change: 'unknown_status' };
  const at = now();
  const closed = isClosedDispute(status);
  const [existing] = await tx
    .select()
    .from(disputes)
    .where(and(eq(disputes.processor, 'stripe'), eq(disputes.processorReference, reported.reference), eq(disputes.merchantId, payment.merchantId)))
    .for('update');
  const reportedColumns = {
    amount: reported.amount,
    currency: reported.currency,
    reason: reported.reason,
    evidenceDueBy: reported.evidenceDueBy,
    evidence: reported.evidence,
    evidenceSubmissionCount: reported.evidenceSubmissionCount,
    fundsWithdrawn: reported.fundsWithdrawn,
    fundsReinstated: reported.fundsReinstated,
  };
  if (!existing) {
    const [row] = await tx
      .insert(disputes)
      .values({
        id: newId('dispute'),
        merchantId: payment.merchantId,
        paymentId: payment.id,
        ...reportedColumns,
        status: disputeStateMachine.start(status),
        processor: 'stripe',
        processorMode: reported.mode,
        processorReference: reported.reference,
        closedAt: closed ? at : null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .returning();
    // Made meanwhile by another transaction (its insert has committed now): this is an update of it.
    if (!row) return recordProcessorDispute(tx, payment, reported);
    const object = toDisputeResponse(row);
    await recordEvent(tx, { merchantId: row.merchantId, type: 'dispute.created', object });
    if (closed) await recordEvent(tx, { merchantId: row.merchantId, type: 'dispute.closed', object });
    return { row, change: 'created' };
  }
  if (existing.status !== status && !disputeStateMachine.canTransition(existing.status, status)) return { row: existing, change: 'stale' };
  const columns = { ...reportedColumns, status, closedAt: closed ? (existing.closedAt ?? at) : null };
  const previousAttributes = changedAttributes(toDisputeResponse(existing), toDisputeResponse({ ...existing, ...columns }));
  if (Object.keys(previousAttributes).length === 0) return { row: existing, change: 'unchanged' };
  const [row] = await tx
    .update(disputes)
    .set({ ...columns, updatedAt: at })
    .where(and(eq(disputes.id, existing.id), eq(disputes.merchantId, existing.merchantId)))
    .returning();
  const change = closed && existing.status !== status ? 'closed' : 'updated';
  await recordEvent(tx, { merchantId: row!.merchantId, type: `dispute.${change}`, object: toDisputeResponse(row!), previousAttributes });
  return { row: row!, change };
}
