import type { disputes } from '../db/schema';

export type DisputeRow = typeof disputes.$inferSelect;

/** A dispute as the API, its events and the console show it. */
export function toDisputeResponse(row: DisputeRow) {
  return {
    id: row.id,
    paymentId: row.paymentId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    evidenceDueBy: row.evidenceDueBy?.toISOString() ?? null,
    evidence: row.evidence,
    evidenceSubmissionCount: row.evidenceSubmissionCount,
    fundsWithdrawn: row.fundsWithdrawn,
    fundsReinstated: row.fundsReinstated,
    processor: { name: row.processor, mode: row.processorMode, reference: row.processorReference },
    closedAt: row.closedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
