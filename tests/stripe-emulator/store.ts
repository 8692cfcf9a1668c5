import { fromFixture, stripeId, unixNow, type StripeObject } from './fixtures';
import { checkAmount, PaymentStore } from './store-payments';
import { truthy, type EventContext, type StoreContext } from './store-cards';
import { invalidRequest } from './validation';

export type { StoreContext, EmitEvent } from './store-cards';

type Params = Record<string, unknown>;

/** The emulator's whole state (test code): cards (store-cards.ts), payments (store-payments.ts), then what comes back from them: refunds and disputes. */
export class StripeStore extends PaymentStore {
  readonly refunds = new Map<string, StripeObject>();
  readonly disputes = new Map<string, StripeObject>();

  createRefund(params: Params, ctx: StoreContext): StripeObject {
    const charge = this.chargeToRefund(params);
    const remaining = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = params.amount === undefined ? remaining : Number(params.amount);
    checkAmount(amount, String(charge.currency));
    if (amount > remaining) {
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, 'amount', 'amount_too_large');
    }
    const refund = fromFixture('refund', {
      id: stripeId('re'),
      amount,
      charge: charge.id,
      created: unixNow(),
      currency: charge.currency,
      metadata: params.metadata ?? {},
      payment_intent: charge.payment_intent,
      reason: params.reason ?? null,
      status: 'succeeded',
      payment_method: charge.payment_method,
    });
    this.refunds.set(refund.id, refund);
    Object.assign(charge, {
      amount_refunded: Number(charge.amount_refunded) + amount,
      refunded: Number(charge.amount_refunded) + amount === Number(charge.amount),
    });
    this.emit('refund.created', refund, ctx);
    this.emit('charge.refunded', charge, ctx);
    return refund;
  }

  private chargeToRefund(params: Params): StripeObject {
    let chargeId = params.charge as string | undefined;
    if (!chargeId && params.payment_intent) {
      const intent = this.found(this.paymentIntents.get(String(params.payment_intent)), 'payment_intent', String(params.payment_intent), 'payment_intent');
      if (intent.status !== 'succeeded')
        throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
      chargeId = String(intent.latest_charge);
    }
    if (!chargeId)
      throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    const charge = this.found(this.charges.get(chargeId), 'charge', chargeId, 'charge');
    if (charge.status !== 'succeeded') throw invalidRequest(`Charge ${charge.id} has not succeeded and cannot be refunded.`, 'charge', 'charge_not_refundable');
    if (charge.disputed) throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, 'charge', 'charge_disputed');
    return charge;
  }

  protected openDispute(charge: StripeObject) {
    const dispute = fromFixture('dispute', {
      id: stripeId('dp'),
      amount: charge.amount,
      charge: charge.id,
      created: unixNow(),
      currency: charge.currency,
      evidence_details: { due_by: unixNow() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0, enhanced_eligibility: {} },
      is_charge_refundable: false,
      livemode: charge.livemode,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
      balance_transactions: [],
    });
    charge.disputed = true;
    this.disputes.set(dispute.id, dispute);
    const ctx = { livemode: Boolean(charge.livemode), idempotencyKey: null, requestId: '' };
    this.emit('charge.dispute.created', dispute, ctx);
    // A chargeback takes the amount and Stripe's dispute fee from the balance at once (an inquiry, `warning_*`, takes nothing).
    (dispute.balance_transactions as StripeObject[]).push(disputeBalanceTransaction(dispute, 'withdrawn'));
    this.emit('charge.dispute.funds_withdrawn', dispute, ctx);
  }

  dispute(id: string): StripeObject {
    return this.found(this.disputes.get(id), 'dispute', id);
  }

  /**
   * Evidence, submitted by default (`submit` true, as Stripe). Stripe's test mode decides a
   * submitted dispute by its text (docs.stripe.com/testing#evidence): `winning_evidence` wins
   * it, `losing_evidence` loses it; other text leaves it under review.
   */
  updateDispute(id: string, params: Params, ctx: StoreContext): StripeObject {
    const dispute = this.dispute(id);
    if (!['needs_response', 'warning_needs_response'].includes(String(dispute.status))) {
      throw invalidRequest(`This dispute is ${String(dispute.status)}: its evidence can no longer be changed.`, undefined, 'dispute_already_closed');
    }
    const evidence = (params.evidence ?? {}) as Record<string, unknown>;
    Object.assign(dispute.evidence as object, evidence);
    if (params.metadata) dispute.metadata = params.metadata;
    const submit = params.submit === undefined || truthy(params.submit);
    const details = dispute.evidence_details as Record<string, unknown>;
    details.has_evidence = Object.keys(evidence).length > 0 || details.has_evidence;
    const inquiry = String(dispute.status).startsWith('warning_');
    if (submit) {
      details.submission_count = Number(details.submission_count) + 1;
      dispute.status = inquiry ? 'warning_under_review' : 'under_review';
    }
    this.emit('charge.dispute.updated', dispute, ctx);
    const text = (dispute.evidence as Record<string, unknown>).uncategorized_text;
    if (submit && (text === 'winning_evidence' || text === 'losing_evidence')) {
      // The issuer decides after the answer (which says `under_review`), as at Stripe.
      const outcome = inquiry ? 'warning_closed' : text === 'winning_evidence' ? 'won' : 'lost';
      setImmediate(() => {
        dispute.status = outcome;
        this.announceClosed(dispute, ctx);
      });
    }
    return dispute;
  }

  /**
   * Test-only (no such Stripe API; server.ts serves it under /emulator/): the card network decides
   * a dispute now, as it would weeks later at Stripe, with its events.
   */
  closeDispute(id: string, outcome: 'won' | 'lost'): StripeObject {
    const dispute = this.dispute(id);
    if (['won', 'lost', 'warning_closed'].includes(String(dispute.status))) {
      throw invalidRequest(`This dispute is already ${String(dispute.status)}.`, undefined, 'dispute_already_closed');
    }
    dispute.status = String(dispute.status).startsWith('warning_') ? 'warning_closed' : outcome;
    this.announceClosed(dispute, { livemode: Boolean(dispute.livemode), idempotencyKey: null, requestId: '' });
    return dispute;
  }

  /** A chargeback won gives the amount and the fee back (`funds_reinstated`), then `closed`. */
  private announceClosed(dispute: StripeObject, ctx: EventContext) {
    if (dispute.status === 'won') {
      (dispute.balance_transactions as StripeObject[]).push(disputeBalanceTransaction(dispute, 'reinstated'));
      this.emit('charge.dispute.funds_reinstated', dispute, ctx);
    }
    this.emit('charge.dispute.closed', dispute, ctx);
  }
}

/** Stripe's dispute fee in the emulator (USD 15.00); Stripe's own depends on the account's country. */
const DISPUTE_FEE = 1500;

/** The balance transaction of money a dispute took (`dispute`) or gave back (`dispute_reversal`), shaped as Stripe's. */
function disputeBalanceTransaction(dispute: StripeObject, movement: 'withdrawn' | 'reinstated'): StripeObject {
  const sign = movement === 'withdrawn' ? -1 : 1;
  const amount = sign * Number(dispute.amount);
  const fee = -sign * DISPUTE_FEE;
  return {
    id: stripeId('txn'),
    object: 'balance_transaction',
    amount,
    available_on: unixNow(),
    created: unixNow(),
    currency: dispute.currency,
    description: movement === 'withdrawn' ? `Chargeback withdrawal for ${String(dispute.charge)}` : `Chargeback reversal for ${String(dispute.charge)}`,
    exchange_rate: null,
    fee,
    fee_details: [{ amount: fee, application: null, currency: dispute.currency, description: 'Dispute fee', type: 'stripe_fee' }],
    net: amount - fee,
    reporting_category: movement === 'withdrawn' ? 'dispute' : 'dispute_reversal',
    source: dispute.id,
    status: 'available',
    type: 'adjustment',
  };
}
