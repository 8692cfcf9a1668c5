import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../db/client';
import { enqueueStaleUnknownPayments, reconcilePayment } from '../../checkout/reconcile';

const Payload = z.object({ paymentId: z.string() });

/** Settles one `unknown` payment; throws while the processor still cannot tell, so the queue retries with backoff. */
export const reconcilePaymentTask: Task = async (payload, helpers) => {
  const { paymentId } = Payload.parse(payload);
  const result = await reconcilePayment(getDb(), paymentId);
  if (result === 'still_unknown') throw new Error(`payment ${paymentId} is still unknown at the processor`);
  helpers.logger.info(`payment ${paymentId}: ${result}`);
};

/** Cron: re-enqueues unknown payments older than ten minutes whose job was lost. */
export const reconcileUnknownPaymentsTask: Task = async (_payload, helpers) => {
  const count = await enqueueStaleUnknownPayments(getDb(), 10 * 60 * 1000);
  if (count) helpers.logger.info(`re-enqueued reconciliation of ${count} unknown payments`);
};
