import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { writeReceipt } from '../../../billing/receipts';
import { deliverEmail } from '../../../email/send-email';

const Payload = z.object({ billingRecordId: z.string() });

/**
 * Writes the receipt email of a paid billing record (queued with the payment,
 * lib/billing/billing-records.ts) and delivers it; a failed delivery runs the job again, which
 * delivers the email written the first time.
 */
export const sendReceiptTask: Task = async (payload, helpers) => {
  const { billingRecordId } = Payload.parse(payload);
  const db = getDb();
  const receipt = await writeReceipt(db, billingRecordId);
  helpers.logger.debug(`receipt of ${billingRecordId}: ${receipt.outcome}`);
  // The email just written is delivered as written; one written by an earlier run is read again.
  if (receipt.outcome === 'written') await deliverEmail(db, receipt.email);
  else if (receipt.outcome === 'written_before') await deliverEmail(db, receipt.emailId);
};
