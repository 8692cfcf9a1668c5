import { randomBytes } from 'node:crypto';
import { fromFixture, stripeId, unixNow, type StripeObject } from './fixtures';
import { cardOfInput, cardPaymentMethod } from './card-input';
import { AUTHENTICATION_FAILED, AUTHENTICATION_REQUIRED, DECLINES, TEST_PAYMENT_METHODS, type CardBehaviour, type Decline } from './test-cards';
import { invalidRequest, StripeError } from './validation';

/**
 * The emulator's state (test code): what Stripe keeps for the objects Paybase uses, in memory.
 * Every change that Stripe reports as an event calls `emit`; webhooks.ts sends them. This part
 * holds customers, payment methods, PaymentIntents and SetupIntents; store.ts adds refunds and disputes.
 */
export interface StoreContext {
  livemode: boolean;
  /** The account the key belongs to (each key is an account of its own here: `accountOfKey`). */
  account: string;
  /** The request came with a publishable key (from Stripe.js). */
  publishable?: boolean;
  /** Where the emulator's own pages are (the 3-D Secure page). */
  baseUrl: string;
  idempotencyKey: string | null;
  requestId: string;
}

type Params = Record<string, unknown>;
export type EmitEvent = (type: string, object: StripeObject, ctx: Pick<StoreContext, 'livemode' | 'idempotencyKey' | 'requestId'> | null) => void;

const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);
/** Stripe keeps ISK two-decimal in its API while only whole krónur may be charged. */
const WHOLE_UNITS_ONLY = new Set(['isk']);

export abstract class PaymentStore {
  readonly customers = new Map<string, StripeObject>();
  /** PaymentMethods spent: used successfully while attached to no Customer. */
  private readonly usedUnattached = new Set<string>();
  readonly paymentMethods = new Map<string, StripeObject & { behaviour: CardBehaviour }>();
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
  readonly setupIntents = new Map<string, StripeObject>();
  /** The unguessable part of each 3-D Secure page's address, by PaymentIntent or SetupIntent id. */
  readonly authenticationSecrets = new Map<string, string>();

  constructor(protected readonly emit: EmitEvent) {}

  /** `pm_card_createDispute`: the charge is disputed right after it succeeds. */
  protected abstract openDispute(charge: StripeObject): void;

  createCustomer(params: Params, ctx: StoreContext): StripeObject {
    const customer = fromFixture('customer', {
      id: stripeId('cus'),
      created: unixNow(),
      livemode: ctx.livemode,
      email: params.email ?? null,
      name: params.name ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    });
    this.customers.set(customer.id, customer);
    this.emit('customer.created', customer, ctx);
    return customer;
  }

  customer(id: string): StripeObject {
    return this.found(this.customers.get(id), 'customer', id);
  }

  /** A known PaymentMethod, or a fresh copy of one of Stripe's test PaymentMethods. */
  paymentMethod(id: string, param = 'payment_method', copy = true): StripeObject & { behaviour: CardBehaviour } {
    const known = this.paymentMethods.get(id);
    if (known) return known;
    const card = TEST_PAYMENT_METHODS[id];
    if (!card) throw invalidRequest(`No such PaymentMethod: '${id}'`, param, 'resource_missing');
    const method = cardPaymentMethod(copy ? stripeId('pm') : id, card, { exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 });
    if (copy) this.paymentMethods.set(method.id, method);
    return method;
  }

  /** `POST /v1/payment_methods` from Stripe.js: a card typed by the customer (card-input.ts). */
  createPaymentMethod(params: Params, ctx: StoreContext): StripeObject {
    const input = cardOfInput(params, { livemode: ctx.livemode, publishable: ctx.publishable ?? false });
    const billing = (params.billing_details ?? {}) as Record<string, unknown>;
    const method = cardPaymentMethod(
      stripeId('pm'),
      input.card,
      { exp_month: input.expMonth, exp_year: input.expYear },
      {
        livemode: ctx.livemode,
        metadata: params.metadata ?? {},
        billing_details: { address: null, email: billing.email || null, name: billing.name || null, phone: billing.phone || null, tax_id: null },
      },
    );
    this.paymentMethods.set(method.id, method);
    return method;
  }

  attachPaymentMethod(id: string, params: Params, ctx: StoreContext): StripeObject {
    const customer = this.customer(String(params.customer));
    const method = this.paymentMethod(id, 'payment_method');
    if (method.customer && method.customer !== customer.id)
      throw invalidRequest('The payment method you provided has already been attached to a customer.', undefined, 'payment_method_unexpected_state');
    if (DECLINES[method.behaviour]) throw cardError(DECLINES[method.behaviour]!, {});
    method.customer = customer.id;
    method.livemode = ctx.livemode;
    this.emit('payment_method.attached', method, ctx);
    return method;
  }

  detachPaymentMethod(id: string, ctx: StoreContext): StripeObject {
    const method = this.found(this.paymentMethods.get(id), 'payment_method', id);
    if (!method.customer)
      throw invalidRequest(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
        undefined,
        'payment_method_unexpected_state',
      );
    method.customer = null;
    this.usedUnattached.add(id);
    this.emit('payment_method.detached', method, ctx);
    return method;
  }

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
      const secret = randomBytes(24).toString('base64url');
      this.authenticationSecrets.set(intent.id, secret);
      const returnUrl = typeof params.return_url === 'string' ? params.return_url : null;
      intent.status = 'requires_action';
      intent.next_action = returnUrl
        ? { type: 'redirect_to_url', redirect_to_url: { url: `${ctx.baseUrl}/emulator/authenticate/${intent.id}?secret=${secret}`, return_url: returnUrl } }
        : {
            type: 'use_stripe_sdk',
            use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${ctx.baseUrl}/emulator/authenticate/${intent.id}?secret=${secret}` },
          };
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

  /** Stripe's rule: a PaymentMethod used once without being attached to a Customer cannot be used again. */
  private refuseUsedUnattached(method: StripeObject) {
    if (method.customer || !this.usedUnattached.has(String(method.id))) return;
    throw invalidRequest(
      'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
      'payment_method',
      'payment_method_unexpected_state',
    );
  }

  /** After a successful use: attached to the customer when asked (`setup_future_usage`, a SetupIntent's customer), otherwise spent. */
  private afterUse(method: StripeObject, customer: unknown, attach: boolean) {
    if (attach && customer && !method.customer) method.customer = customer;
    if (!method.customer) this.usedUnattached.add(String(method.id));
  }

  private succeedPaymentIntent(intent: StripeObject, ctx: Pick<StoreContext, 'livemode' | 'idempotencyKey' | 'requestId'>): StripeObject {
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    this.afterUse(method, intent.customer, Boolean(intent.setup_future_usage));
    const charge = this.newCharge(intent, method, 'succeeded', null);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: charge.id, next_action: null, last_payment_error: null });
    this.emit('charge.succeeded', charge, ctx);
    this.emit('payment_intent.succeeded', intent, ctx);
    if (method.behaviour === 'dispute') setImmediate(() => this.openDispute(charge));
    return intent;
  }

  private failPaymentIntent(
    intent: StripeObject,
    method: StripeObject,
    decline: Decline,
    ctx: Pick<StoreContext, 'livemode' | 'idempotencyKey' | 'requestId'>,
    throws = true,
  ): StripeObject {
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

  createSetupIntent(params: Params, ctx: StoreContext): StripeObject {
    if (params.customer) this.customer(String(params.customer));
    const intent = fromFixture('setup_intent', {
      id: stripeId('seti'),
      created: unixNow(),
      customer: params.customer ?? null,
      description: params.description ?? null,
      last_setup_error: null,
      livemode: ctx.livemode,
      metadata: params.metadata ?? {},
      next_action: null,
      payment_method: params.payment_method ? this.paymentMethod(String(params.payment_method)).id : null,
      payment_method_configuration_details: null,
      status: params.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      usage: params.usage ?? 'off_session',
    });
    intent.client_secret = `${intent.id}_secret_${randomBytes(12).toString('base64url')}`;
    this.setupIntents.set(intent.id, intent);
    this.emit('setup_intent.created', intent, ctx);
    return truthy(params.confirm) ? this.confirmSetupIntent(intent.id, params, ctx) : intent;
  }

  setupIntent(id: string): StripeObject {
    return this.found(this.setupIntents.get(id), 'setup_intent', id);
  }

  confirmSetupIntent(id: string, params: Params, ctx: StoreContext): StripeObject {
    const intent = this.setupIntent(id);
    if (params.payment_method) intent.payment_method = this.paymentMethod(String(params.payment_method)).id;
    if (!intent.payment_method)
      throw invalidRequest("You cannot confirm this SetupIntent because it's missing a payment method.", 'payment_method', 'setup_intent_unexpected_state');
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    this.refuseUsedUnattached(method);
    const decline = DECLINES[method.behaviour];
    if (decline) {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_setup_error: { type: 'card_error', ...decline, payment_method: method },
        payment_method: null,
      });
      this.emit('setup_intent.setup_failed', intent, ctx);
      throw cardError(decline, { setup_intent: intent, payment_method: method });
    }
    if (method.behaviour === 'authenticate') {
      const secret = randomBytes(24).toString('base64url');
      this.authenticationSecrets.set(intent.id, secret);
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
      this.emit('setup_intent.requires_action', intent, ctx);
      return intent;
    }
    this.afterUse(method, intent.customer, true);
    Object.assign(intent, { status: 'succeeded', next_action: null });
    this.emit('setup_intent.succeeded', intent, ctx);
    return intent;
  }

  protected found<T>(object: T | undefined, resource: string, id: string, param = 'id'): T {
    if (!object)
      throw new StripeError(404, { error: { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${resource}: '${id}'` } });
    return object;
  }
}

export function cardError(decline: Decline, extra: Record<string, unknown>): StripeError {
  return new StripeError(402, { error: { type: 'card_error', ...decline, ...extra } });
}

export function truthy(value: unknown): boolean {
  return value === true || value === 'true';
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
