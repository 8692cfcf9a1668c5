import Stripe from 'stripe';
import { DISPUTE_EVIDENCE_FIELDS, DISPUTE_STATUSES, type DisputeEvidenceText, type DisputeStatus } from '../../db/schema';
import { PAYBASE_KEY } from './stripe';
import { fromStripeAmount } from './stripe-amounts';
import type { ProcessorMode } from './types';

/** A dispute as Stripe reports it now, in Paybase's terms (amounts in our minor units). */
export interface ProcessorDispute {
  reference: string;
  mode: ProcessorMode;
  /** The key our payment charged with (the PaymentIntent's metadata); null for a charge Paybase did not make. */
  paymentKey: string | null;
  amount: number;
  currency: string;
  reason: string;
  /** null: a status Stripe added that Paybase does not know yet. */
  status: DisputeStatus | null;
  rawStatus: string;
  evidenceDueBy: Date | null;
  evidence: DisputeEvidenceText;
  evidenceSubmissionCount: number;
  fundsWithdrawn: boolean;
  fundsReinstated: boolean;
}

export type EvidenceOutcome = { status: 'accepted'; dispute: ProcessorDispute } | { status: 'refused'; message: string };

/** Stripe did not answer (a timeout, a connection lost, its own error): the request may or may not have taken effect. */
export class StripeUnavailable extends Error {}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The dispute with this id at Stripe now, or undefined when Stripe does not know it (another account or mode). */
export async function retrieveStripeDispute(stripe: Stripe, reference: string): Promise<ProcessorDispute | undefined> {
  try {
    return disputeFromStripe(await stripe.disputes.retrieve(reference, { expand: ['payment_intent'] }));
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return undefined;
    throw uncertain(error);
  }
}

/**
 * Evidence to Stripe (`disputes.update`); `submit` false stages it without sending it to the
 * issuer. `idempotencyKey` is derived from the request that asks, so its retries send it once.
 */
export async function updateStripeDisputeEvidence(
  stripe: Stripe,
  reference: string,
  input: { evidence: DisputeEvidenceText; submit: boolean; idempotencyKey: string },
): Promise<EvidenceOutcome> {
  const evidence: Record<string, string> = {};
  for (const [field, text] of Object.entries(input.evidence)) if (text !== undefined) evidence[snakeCase(field)] = text;
  try {
    const updated = await stripe.disputes.update(
      reference,
      { evidence: evidence as Stripe.DisputeUpdateParams.Evidence, submit: input.submit, expand: ['payment_intent'] },
      { idempotencyKey: input.idempotencyKey },
    );
    return { status: 'accepted', dispute: disputeFromStripe(updated) };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) return { status: 'refused', message: error.message };
    throw uncertain(error);
  }
}

function disputeFromStripe(dispute: Stripe.Dispute): ProcessorDispute {
  const intent = typeof dispute.payment_intent === 'object' ? dispute.payment_intent : null;
  const currency = dispute.currency.toUpperCase();
  const status = (DISPUTE_STATUSES as readonly string[]).includes(dispute.status) ? (dispute.status as DisputeStatus) : null;
  const evidence: DisputeEvidenceText = {};
  const stripeEvidence = dispute.evidence as unknown as Record<string, unknown>;
  for (const field of DISPUTE_EVIDENCE_FIELDS) {
    const text = stripeEvidence[snakeCase(field)];
    if (typeof text === 'string' && text !== '') evidence[field] = text;
  }
  // Funds move by balance transactions: a withdrawal is negative, a reinstatement positive.
  const movements = dispute.balance_transactions ?? [];
  const dueBy = dispute.evidence_details?.due_by;
  return {
    reference: dispute.id,
    mode: dispute.livemode ? 'live' : 'test',
    paymentKey: intent?.metadata?.[PAYBASE_KEY] ?? null,
    amount: fromStripeAmount(dispute.amount, currency),
    currency,
    reason: dispute.reason,
    status,
    rawStatus: dispute.status,
    evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
    evidence,
    evidenceSubmissionCount: dispute.evidence_details?.submission_count ?? 0,
    fundsWithdrawn: movements.some((movement) => movement.amount < 0) || dispute.status === 'lost',
    fundsReinstated: movements.some((movement) => movement.amount > 0),
  };
}

function uncertain(error: unknown): unknown {
  const unanswered =
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500);
  return unanswered ? new StripeUnavailable(`Stripe did not answer: ${(error as Error).message}`) : error;
}
