import type { refunds } from '../db/schema';

export type RefundRow = typeof refunds.$inferSelect;

/** A refund as the API shows it (read by payments.ts for a payment's refunds and by refunds.ts). */
export function toRefundResponse(row: RefundRow) {
  return {
    id: row.id,
    paymentId: row.paymentId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    failureMessage: row.failureMessage,
    processor: { name: row.processor, mode: row.processorMode, reference: row.processorReference?.startsWith('none_') ? null : row.processorReference },
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
