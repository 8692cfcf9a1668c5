import type { z } from 'zod';
import type { Db } from '../db/client';
import { findPaymentLinkRow } from '../payment-links/payment-links';
import type { CompletePaymentLinkBody } from '../payment-links/schemas';
import { completeCheckout } from './checkouts';

/** POST /api/PaymentLink/{id}/Complete: a backend pays a link on the customer's behalf. */
export async function completePaymentLink(tx: Db, merchantId: string, paymentLinkId: string, input: z.output<typeof CompletePaymentLinkBody>) {
  const link = await findPaymentLinkRow(tx, merchantId, paymentLinkId);
  return completeCheckout(tx, merchantId, { ...input, paymentLinkToken: link.token }, { linkFieldPath: 'paymentLinkId' });
}
