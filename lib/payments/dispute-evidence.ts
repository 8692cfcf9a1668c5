import crypto from 'node:crypto';
import type { z } from 'zod';
import type { Phases } from '../db/phases';
import { DISPUTE_EVIDENCE_FIELDS, type DisputeEvidenceText } from '../db/schema';
import { ApiError } from '../errors';
import { recordAudit } from '../audit/audit-log';
import { retrieveStripeDispute, StripeUnavailable, updateStripeDisputeEvidence } from './processor/stripe-disputes';
import { stripeClientOfPayment } from './processor';
import { findDisputeRow, recordProcessorDispute } from './disputes';
import { toDisputeResponse, type DisputeRow } from './dispute-response';
import { disputeStateMachine, EVIDENCE_OPEN_STATUSES } from './dispute-states';
import type { DisputeEvidenceBody } from './schemas';

/**
 * Sends a seller's evidence to the processor (Stripe's `disputes.update`, submitted unless
 * `submit` is false) and records the dispute as Stripe answers it, with `dispute.updated`: the
 * API's POST /api/Dispute/{id}/Evidence and the console's form. No transaction is open while
 * Stripe is asked; its Idempotency-Key comes from `requestKey` (the request's own key), so a
 * retried request sends the evidence once (without one, each call is a request of its own). Stripe refusing it (the dispute closed meanwhile) is
 * a 409, after the dispute's current state is recorded.
 */
export async function submitDisputeEvidence(
  phases: Phases,
  merchantId: string,
  disputeId: string,
  input: z.output<typeof DisputeEvidenceBody>,
  requestKey: string | undefined,
) {
  const dispute = await findDisputeRow(phases.db, merchantId, disputeId);
  if (!(EVIDENCE_OPEN_STATUSES as readonly string[]).includes(dispute.status)) {
    throw disputeStateMachine.refusal(
      dispute.status,
      'under_review',
      `Dispute ${dispute.id} is ${dispute.status}`,
      'evidence is taken only while it needs a response',
    );
  }
  const stripe = await stripeClientOfPayment(phases.db, dispute.merchantId, dispute.paymentId);
  if (!stripe) {
    throw new ApiError(
      'CONFLICT',
      `Dispute ${dispute.id} is at Stripe in ${dispute.processorMode} mode, and this installation is no longer connected to that Stripe account in that mode: respond in Stripe's dashboard.`,
    );
  }
  const evidence: DisputeEvidenceText = {};
  for (const field of DISPUTE_EVIDENCE_FIELDS) if (input[field] !== undefined) evidence[field] = input[field];
  const submit = input.submit ?? true;
  const outcome = await updateStripeDisputeEvidence(stripe, dispute.processorReference, {
    evidence,
    submit,
    idempotencyKey: `${dispute.id}:evidence:${crypto
      .createHash('sha256')
      .update(`${merchantId}:${requestKey ?? crypto.randomUUID()}`)
      .digest('hex')
      .slice(0, 40)}`,
  }).catch((error: unknown) => {
    throw error instanceof StripeUnavailable ? stripeDidNotAnswer() : error;
  });
  if (outcome.status === 'refused') {
    const current = await recordCurrentState(phases, dispute);
    throw new ApiError('INVALID_STATE', `Stripe refused the evidence for dispute ${dispute.id}: ${outcome.message}`, {
      extra: { state: current.status, requested: 'under_review' },
    });
  }
  return phases.db.transaction(async (tx) => {
    const { row } = await recordProcessorDispute(tx, paymentOf(dispute), outcome.dispute);
    await recordAudit(tx, {
      merchantId,
      action: 'dispute.evidence_submitted',
      target: { kind: 'dispute', id: dispute.id },
      // The field names only: evidence holds the customer's personal data.
      metadata: { paymentId: dispute.paymentId, fields: Object.keys(evidence), submitted: submit },
    });
    const answer = toDisputeResponse(row ?? (await findDisputeRow(tx, merchantId, dispute.id)));
    await phases.answer(tx, answer);
    return answer;
  });
}

const paymentOf = (dispute: DisputeRow) => ({ id: dispute.paymentId, merchantId: dispute.merchantId, processor: dispute.processor });

/** What Stripe says of the dispute now, recorded; the stored row when Stripe cannot tell. */
async function recordCurrentState(phases: Phases, dispute: DisputeRow): Promise<DisputeRow> {
  const stripe = await stripeClientOfPayment(phases.db, dispute.merchantId, dispute.paymentId);
  if (!stripe) return dispute;
  const current = await retrieveStripeDispute(stripe, dispute.processorReference).catch((error: unknown) => {
    if (error instanceof StripeUnavailable) return undefined;
    throw error;
  });
  if (!current) return dispute;
  const { row } = await phases.db.transaction((tx) => recordProcessorDispute(tx, paymentOf(dispute), current));
  return row ?? dispute;
}

function stripeDidNotAnswer(): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', 'Stripe did not answer; the evidence may not have been received. Try again in a moment.', {
    retryAfterSeconds: 30,
  });
}
