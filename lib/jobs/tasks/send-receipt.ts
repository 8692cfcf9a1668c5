import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../db/client';
import { sendReceipt } from '../../billing/receipts';

const Payload = z.object({ billingRecordId: z.string() });

/** Queues the receipt email of a paid billing record (queued with the payment, lib/billing/billing-records.ts). */
export const sendReceiptTask: Task = async (payload, helpers) => {
  const { billingRecordId } = Payload.parse(payload);
  const result = await sendReceipt(getDb(), billingRecordId);
  helpers.logger.debug(`receipt of ${billingRecordId}: ${result}`);
};
