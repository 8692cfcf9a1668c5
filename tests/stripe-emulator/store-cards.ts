import { randomBytes } from 'node:crypto';
import { fromFixture, stripeId, unixNow, type StripeObject } from './fixtures';
import { cardOfInput, cardPaymentMethod } from './card-input';
import { DECLINES, SETUP_AUTHENTICATION_FAILED, TEST_PAYMENT_METHODS, type CardBehaviour, type Decline } from './test-cards';
import { invalidRequest, StripeError } from './validation';

/**
 * The emulator's state (test code): what Stripe keeps for the objects Paybase uses, in memory.
 * Every change that Stripe reports as an event calls `emit`; webhooks.ts sends them. This part
 * holds customers, payment methods and SetupIntents (cards kept for later, with their 3-D Secure);
 * store-payments.ts adds PaymentIntents and charges, store.ts refunds and disputes.
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

export type Params = Record<string, unknown>;
/** What an event records of the request that caused it; no `account` for one no request caused (its webhooks go to every account's endpoints). */
export type EventContext = Pick<StoreContext, 'livemode' | 'idempotencyKey' | 'requestId'> & { account?: string };
export type EmitEvent = (type: string, object: StripeObject, ctx: EventContext | null) => void;

/** What a SetupIntent shows to a publishable key with its client secret (Stripe.js): no customer, no metadata. */
const SETUP_INTENT_CLIENT_FIELDS = [
  'id',
  'object',
  'cancellation_reason',
  'client_secret',
  'created',
  'description',
  'last_setup_error',
  'livemode',
  'next_action',
  'payment_method',
  'payment_method_types',
  'status',
  'usage',
];

export abstract class CardStore {
  readonly customers = new Map<string, StripeObject>();
  /** PaymentMethods spent: used successfully while attached to no Customer. */
  protected readonly usedUnattached = new Set<string>();
  readonly paymentMethods = new Map<string, StripeObject & { behaviour: CardBehaviour }>();
  readonly setupIntents = new Map<string, StripeObject>();
  /** The unguessable part of each 3-D Secure page's address, by PaymentIntent or SetupIntent id. */
  readonly authenticationSecrets = new Map<string, string>();

  constructor(protected readonly emit: EmitEvent) {}

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

  /** `GET /v1/setup_intents/:id` with a publishable key (Stripe.js): only with the intent's client secret, and only what a browser may see. */
  setupIntentForClient(id: string, clientSecret: unknown): StripeObject {
    const intent = this.setupIntents.get(id);
    if (!intent || intent.client_secret !== clientSecret) {
      throw invalidRequest('The client_secret provided does not match any associated SetupIntent on this account.', 'client_secret', 'resource_missing');
    }
    return Object.fromEntries(SETUP_INTENT_CLIENT_FIELDS.map((field) => [field, intent[field] ?? null])) as StripeObject;
  }

  confirmSetupIntent(id: string, params: Params, ctx: StoreContext): StripeObject {
    const intent = this.setupIntent(id);
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(String(intent.status))) {
      throw invalidRequest(`This SetupIntent's status is ${intent.status}, so it cannot be confirmed.`, undefined, 'setup_intent_unexpected_state');
    }
    if (params.payment_method) intent.payment_method = this.paymentMethod(String(params.payment_method)).id;
    if (!intent.payment_method)
      throw invalidRequest("You cannot confirm this SetupIntent because it's missing a payment method.", 'payment_method', 'setup_intent_unexpected_state');
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    this.refuseUsedUnattached(method);
    const decline = DECLINES[method.behaviour];
    if (decline) {
      this.failSetupIntent(intent, method, { type: 'card_error', ...decline }, ctx);
      throw cardError(decline, { setup_intent: intent, payment_method: method });
    }
    if (method.behaviour === 'authenticate') {
      // Stripe's test cards that ask for 3-D Secure ask for it when a card is set up, too.
      intent.status = 'requires_action';
      intent.next_action = this.authenticationAction(intent, ctx, typeof params.return_url === 'string' ? params.return_url : null);
      this.emit('setup_intent.requires_action', intent, ctx);
      return intent;
    }
    return this.succeedSetupIntent(intent, ctx);
  }

  /** The 3-D Secure page's answer for a SetupIntent: the card is set up (attached to the customer), or the intent needs another payment method. */
  finishSetupAuthentication(id: string, secret: string, result: 'complete' | 'fail'): StripeObject | undefined {
    const intent = this.setupIntents.get(id);
    if (!intent || this.authenticationSecrets.get(id) !== secret) return undefined;
    if (intent.status !== 'requires_action') return intent;
    const ctx = { livemode: Boolean(intent.livemode), idempotencyKey: null, requestId: '' };
    if (result === 'complete') return this.succeedSetupIntent(intent, ctx);
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    return this.failSetupIntent(intent, method, { type: 'invalid_request_error', ...SETUP_AUTHENTICATION_FAILED }, ctx);
  }

  /**
   * What Stripe answers as `next_action` when a card asks for 3-D Secure: its page with a
   * `return_url` given (`redirect_to_url`), else the challenge Stripe.js shows in the page
   * (`use_stripe_sdk`, whose `stripe_js` is that page in a frame).
   */
  protected authenticationAction(intent: StripeObject, ctx: StoreContext, returnUrl: string | null): Record<string, unknown> {
    const secret = randomBytes(24).toString('base64url');
    this.authenticationSecrets.set(intent.id, secret);
    const page = `${ctx.baseUrl}/emulator/authenticate/${intent.id}?secret=${secret}`;
    if (returnUrl) return { type: 'redirect_to_url', redirect_to_url: { url: page, return_url: returnUrl } };
    return { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: page, source: stripeId('src') } };
  }

  private succeedSetupIntent(intent: StripeObject, ctx: EventContext): StripeObject {
    const method = this.paymentMethods.get(String(intent.payment_method))!;
    this.afterUse(method, intent.customer, true);
    Object.assign(intent, { status: 'succeeded', next_action: null, last_setup_error: null });
    this.emit('setup_intent.succeeded', intent, ctx);
    return intent;
  }

  private failSetupIntent(intent: StripeObject, method: StripeObject, error: Record<string, unknown>, ctx: EventContext): StripeObject {
    Object.assign(intent, {
      status: 'requires_payment_method',
      next_action: null,
      last_setup_error: { ...error, payment_method: method },
      payment_method: null,
    });
    this.emit('setup_intent.setup_failed', intent, ctx);
    return intent;
  }

  /** Stripe's rule: a PaymentMethod used once without being attached to a Customer cannot be used again. */
  protected refuseUsedUnattached(method: StripeObject) {
    if (method.customer || !this.usedUnattached.has(String(method.id))) return;
    throw invalidRequest(
      'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
      'payment_method',
      'payment_method_unexpected_state',
    );
  }

  /** After a successful use: attached to the customer when asked (`setup_future_usage`, a SetupIntent's customer), otherwise spent. */
  protected afterUse(method: StripeObject, customer: unknown, attach: boolean) {
    if (attach && customer && !method.customer) method.customer = customer;
    if (!method.customer) this.usedUnattached.add(String(method.id));
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
