import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { plainPhases } from '../../../db/phases';
import { config } from '../../../config';
import { enqueueStaleUnknownPayments, finishStalePhases, reconcilePayment } from '../../../payments/recovery';
import { finishRefund } from '../../../payments/refunds';
import '../money-move-kinds';

const Payload = z.object({ paymentId: z.string() });

/**
 * Settles one `unknown` payment (throws while the processor still cannot tell, so the queue
 * retries with backoff), or one `requires_action` payment once its customer authenticated or
 * gave up (while they may still, it queues its own next look).
 */
export const reconcilePaymentTask: Task = async (payload, helpers) => {
  const { paymentId } = Payload.parse(payload);
  const result = await reconcilePayment(getDb(), paymentId);
  if (result === 'still_unknown') throw new Error(`payment ${paymentId} is still unknown at the processor`);
  helpers.logger.info(`payment ${paymentId}: ${result}`);
};

/** Cron: re-enqueues unknown payments older than ten minutes, and abandoned authentications, whose job was lost. */
export const reconcileUnknownPaymentsTask: Task = async (_payload, helpers) => {
  const count = await enqueueStaleUnknownPayments(getDb(), 10 * 60 * 1000);
  if (count) helpers.logger.info(`re-enqueued reconciliation of ${count} unknown payments`);
};

/**
 * Cron (every minute, and once when a worker starts: the usual moment after a crash): finishes
 * payments and refunds whose request stopped between phase 1 and phase 3.
 */
export const finishStalePhasesTask: Task = async (_payload, helpers) => {
  const finished = await finishStalePhases(getDb(), config.payments.pendingReconcileAfterMs);
  if (finished.payments || finished.refunds)
    helpers.logger.info(`finished ${finished.payments} pending payment(s) and ${finished.refunds} requested refund(s)`);
};

const RefundPayload = z.object({ refundId: z.string() });

/** Finishes a refund a money move requested in its phase 3 (an unwanted charge), with no transaction open. */
export const finishRefundTask: Task = async (payload) => {
  const { refundId } = RefundPayload.parse(payload);
  await finishRefund(plainPhases(getDb()), refundId);
};
