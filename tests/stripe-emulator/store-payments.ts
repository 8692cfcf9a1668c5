import { randomBytes } from 'node:crypto';
import { fromFixture, stripeId, unixNow, type StripeObject } from './fixtures';
import { AUTHENTICATION_FAILED, AUTHENTICATION_REQUIRED, DECLINES, type Decline } from './test-cards';
import { invalidRequest } from './validation';
import { CardStore, cardError, truthy, type EventContext, type Params, type StoreContext } from './store-cards';

const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);
/** Stripe keeps ISK two-decimal in its API while only whole krónur may be charged. */
const WHOLE_UNITS_ONLY = new Set(['isk']);

/**
 * PaymentIntents and their charges (test code), over the customers, payment methods and
 * SetupIntents of store-cards.ts; store.ts adds refunds and disputes.
 */
export abstract class PaymentStore extends CardStore {
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();

  /** `pm_card_createDispute`: the charge is disputed right after it succeeds. */
  protected abstract openDispute(charge: StripeObject): void;

  createPaymentIntent(params: Params, ctx: StoreContext): StripeObject {
    const currency = String(params.currency).toLowerCase();
    const amount = Number(params.amount);
    checkAmount(amount, currency);
    if (params.customer) this.customer(String(params.customer));
    const intent = fromFixture('payment_intent', {
      id: stripeId('pi'),
      amount,
      amount_capturable: 0,
      amount_received: 0,
      canceled_at: null,
      capture_method: params.capture_method ?? 'automatic',
      confirmation_method: params.confirmation_method ?? 'automatic',
      created: unixNow(),
      currency,
      customer: params.customer ?? null,
      description: params.description ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: ctx.livemode,
      metadata: params.metadata ?? {},
      next_action: null,
      payment_method: null,
      payment_method_configuration_details: null,
      processing: null,
      shipping: null,
      transfer_data: null,
      setup_future_usage: params.setup_future_usage || null,
      status: 'requires_payment_method',
    });
    intent.client_secret = `${intent.id}_secret_${randomBytes(12).toString('base64url')}`;
    this.paymentIntents.set(intent.id, intent);
    if (params.payment_method) this.choosePaymentMethod(intent, String(params.payment_method), params);
    this.emit('payment_intent.created', intent, ctx);
    if (truthy(params.confirm)) return this.confirmPaymentIntent(intent.id, params, ctx);
    return intent;
  }

  paymentIntent(id: string): StripeObject {
    return this.found(this.paymentIntents.get(id), 'payment_intent', id);
  }

  confirmPaymentIntent(id: string, params: Params, ctx: StoreContext): StripeObject {
    const intent = this.paymentIntent(id);
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(String(intent.status))) {
      throw invalidRequest(`This PaymentIntent's status is ${intent.status}, so it cannot be confirmed.`, undefined, 'payment_intent_unexpected_state');
    }
    if (params.payment_method) this.choosePaymentMethod(intent, String(params.payment_method), params);
    if (!intent.payment_method)
      throw invalidRequest("You cannot confirm this PaymentIntent because it's missing a payment method.", 'payment_method', 'payment_intent_unexpected_state');
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    const offSession = truthy(params.off_session) || params.off_session === 'one_off' || params.off_session === 'recurring';
    const decline = DECLINES[method.behaviour];
    if (decline) return this.failPaymentIntent(intent, method, decline, ctx);
    if (method.behaviour === 'authenticate') {
      if (offSession) return this.failPaymentIntent(intent, method, AUTHENTICATION_REQUIRED, ctx);
      intent.status = 'requires_action';
      intent.next_action = this.authenticationAction(intent, ctx, typeof params.return_url === 'string' ? params.return_url : null);
      this.emit('payment_intent.requires_action', intent, ctx);
      return intent;
    }
    return this.succeedPaymentIntent(intent, ctx);
  }

  /** The 3-D Secure page's answer: the charge goes through, or the PaymentIntent needs another payment method. */
  finishAuthentication(id: string, secret: string, result: 'complete' | 'fail'): StripeObject | undefined {
    const intent = this.paymentIntents.get(id);
    if (!intent || this.authenticationSecrets.get(id) !== secret) return undefined;
    if (intent.status !== 'requires_action') return intent;
    const ctx = { livemode: Boolean(intent.livemode), idempotencyKey: null, requestId: '' };
    if (result === 'complete') return this.succeedPaymentIntent(intent, ctx);
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    intent.next_action = null;
    return this.failPaymentIntent(intent, method, AUTHENTICATION_FAILED, ctx, false);
  }

  cancelPaymentIntent(id: string, params: Params, ctx: StoreContext): StripeObject {
    const intent = this.paymentIntent(id);
    if (['succeeded', 'canceled', 'processing'].includes(String(intent.status))) {
      throw invalidRequest(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, undefined, 'payment_intent_unexpected_state');
    }
    Object.assign(intent, { status: 'canceled', canceled_at: unixNow(), cancellation_reason: params.cancellation_reason ?? null, next_action: null });
    this.emit('payment_intent.canceled', intent, ctx);
    return intent;
  }

  private choosePaymentMethod(intent: StripeObject, id: string, params: Params) {
    const method = this.paymentMethod(id);
    const customer = params.customer ?? intent.customer;
    if (method.customer && customer && method.customer !== customer) {
      throw invalidRequest(`The provided PaymentMethod ${method.id} belongs to another customer.`, 'payment_method', 'payment_method_unexpected_state');
    }
    if (method.customer && !customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${method.id} is attached to a Customer: give that customer with it.`,
        'payment_method',
        'payment_method_unexpected_state',
      );
    }
    this.refuseUsedUnattached(method);
    intent.payment_method = method.id;
    intent.status = 'requires_confirmation';
  }

  private succeedPaymentIntent(intent: StripeObject, ctx: EventContext): StripeObject {
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    this.afterUse(method, intent.customer, Boolean(intent.setup_future_usage));
    const charge = this.newCharge(intent, method, 'succeeded', null);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: charge.id, next_action: null, last_payment_error: null });
    this.emit('charge.succeeded', charge, ctx);
    this.emit('payment_intent.succeeded', intent, ctx);
    if (method.behaviour === 'dispute') setImmediate(() => this.openDispute(charge));
    return intent;
  }

  private failPaymentIntent(intent: StripeObject, method: StripeObject, decline: Decline, ctx: EventContext, throws = true): StripeObject {
    const charge = decline === AUTHENTICATION_FAILED ? null : this.newCharge(intent, method, 'failed', decline);
    Object.assign(intent, {
      status: 'requires_payment_method',
      latest_charge: charge?.id ?? intent.latest_charge,
      last_payment_error: { type: 'card_error', charge: charge?.id, ...decline, payment_method: method },
      payment_method: null,
    });
    if (charge) this.emit('charge.failed', charge, ctx);
    this.emit('payment_intent.payment_failed', intent, ctx);
    if (throws) throw cardError(decline, { payment_intent: intent, charge: charge?.id, payment_method: method });
    return intent;
  }

  private newCharge(intent: StripeObject, method: StripeObject, status: 'succeeded' | 'failed', decline: Decline | null): StripeObject {
    const charge = fromFixture('charge', {
      id: stripeId('ch'),
      amount: intent.amount,
      amount_captured: status === 'succeeded' ? intent.amount : 0,
      amount_refunded: 0,
      captured: status === 'succeeded',
      created: unixNow(),
      currency: intent.currency,
      customer: intent.customer,
      livemode: intent.livemode,
      metadata: intent.metadata,
      paid: status === 'succeeded',
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: { type: 'card', card: method.card },
      refunded: false,
      status,
      failure_code: decline?.code ?? null,
      failure_message: decline?.message ?? null,
      outcome: decline
        ? { type: 'issuer_declined', reason: decline.decline_code ?? null, seller_message: 'The bank did not return any further details with this decline.' }
        : { type: 'authorized', reason: null },
      disputed: false,
    });
    this.charges.set(charge.id, charge);
    return charge;
  }
}

/** Stripe's amount rules for its special-case currencies (docs.stripe.com/currencies#special-cases). */
export function checkAmount(amount: number, currency: string) {
  if (!Number.isInteger(amount) || amount < 1)
    throw invalidRequest('Amount must be at least 1 in the smallest currency unit.', 'amount', 'parameter_invalid_integer');
  if (THREE_DECIMAL.has(currency) && amount % 10 !== 0) {
    throw invalidRequest(`Invalid amount: ${currency.toUpperCase()} amounts must have 0 as their last digit.`, 'amount', 'invalid_amount');
  }
  if (WHOLE_UNITS_ONLY.has(currency) && amount % 100 !== 0) {
    throw invalidRequest(
      `Invalid amount. Currency ${currency.toUpperCase()} has become effectively zero-decimal and charged amounts must be evenly divisible by 100.`,
      'amount',
      'invalid_charge_amount_no_decimal_compatible',
    );
  }
}
