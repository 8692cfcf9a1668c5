import type { z } from 'zod';
import type { Phases } from '../db/phases';
import type { Attempt } from '../http/idempotency';
import { findPaymentLinkRow } from '../payment-links/payment-links';
import type { CompletePaymentLinkBody } from '../payment-links/schemas';
import { completeCheckout } from './checkouts';

/** POST /api/PaymentLink/{id}/Complete: a backend pays a link on the customer's behalf. */
export async function completePaymentLink(
  phases: Phases,
  merchantId: string,
  paymentLinkId: string,
  input: z.output<typeof CompletePaymentLinkBody>,
  attempt?: Attempt,
) {
  const link = await findPaymentLinkRow(phases.db, merchantId, paymentLinkId);
  return completeCheckout(phases, merchantId, { ...input, paymentLinkToken: link.token }, { linkFieldPath: 'paymentLinkId', attempt });
}
