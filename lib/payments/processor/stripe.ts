import Stripe from 'stripe';
import { config } from '../../config';
import { PLATFORM_CONNECTION } from '../../db/schema/processors';
import { fromStripeAmount, toStripeAmount, UnsupportedStripeAmount } from './stripe-amounts';
import {
  CardInputError,
  type CanceledCharge,
  type CardDetails,
  type ChargeInput,
  type ChargeOutcome,
  type NextAction,
  type PaymentProcessor,
  type ProcessorCustomerInput,
  type ProcessorMode,
  type RefundOutcome,
  type RetrievedCharge,
  type RetrievedVerification,
  type TokenizedCard,
  type VerificationOutcome,
} from './types';

/**
 * Stripe behind the processor seam (docs/processors.md), through the official SDK only. A charge
 * is one PaymentIntent, created and confirmed in one call whose Idempotency-Key is our key, and
 * whose metadata carries the key too: Stripe cannot look a PaymentIntent up by Idempotency-Key,
 * so `retrieveCharge` finds it by searching that metadata (docs/decisions.md, "Finding a Stripe
 * charge by our key").
 */
export const PAYBASE_KEY = 'paybase_key';
/** Set on the PaymentIntent `cancelCharge` makes to take a key before any charge could. */
const CANCELED_MARK = 'paybase_canceled';

export function stripeModeOf(secretKey: string): ProcessorMode {
  return /^(?:sk|rk)_live_/.test(secretKey) ? 'live' : 'test';
}

export function stripeClient(secretKey: string): Stripe {
  const api = new URL(config.processor.stripe.apiUrl);
  return new Stripe(secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    // The SDK retries connection errors, 409s and 5xx with the same Idempotency-Key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Paybase' },
  });
}

type Intent = Stripe.PaymentIntent;

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe';
  readonly mode: ProcessorMode;

  constructor(
    /** The SDK client of this connection, for what is not a payment (disputes, webhook endpoints). */
    readonly stripe: Stripe,
    secretKey: string,
    readonly connection: string = PLATFORM_CONNECTION,
  ) {
    this.mode = stripeModeOf(secretKey);
  }

  /** Card numbers never reach Paybase in Stripe mode: Stripe.js turns them into PaymentMethods in the browser. */
  async tokenizeCard(): Promise<TokenizedCard> {
    throw new CardInputError('number', 'This installation takes cards through Stripe: card numbers are entered in Stripe’s own form.');
  }

  async describeToken(token: string): Promise<CardDetails | undefined> {
    if (!/^pm_\w+$/.test(token)) return undefined;
    try {
      return cardOf(await this.stripe.paymentMethods.retrieve(token)) ?? undefined;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    let amount: number;
    try {
      amount = toStripeAmount(input.amount, input.currency);
    } catch (error) {
      if (!(error instanceof UnsupportedStripeAmount)) throw error;
      return { status: 'failed', reference: `none_${input.idempotencyKey}`, card: null, declineCode: 'amount_not_supported', message: error.message };
    }
    const params: Stripe.PaymentIntentCreateParams = {
      amount,
      currency: input.currency.toLowerCase(),
      payment_method: input.token,
      allowed_payment_method_types: ['card'],
      confirm: true,
      metadata: { [PAYBASE_KEY]: input.idempotencyKey },
      expand: ['payment_method'],
    };
    if (input.customer) params.customer = input.customer;
    if (input.customer && input.keepCard) params.setup_future_usage = 'off_session';
    if (input.offSession) params.off_session = true;
    // Without a return_url Stripe asks for authentication through Stripe.js (`use_stripe_sdk`), not a page.
    else params.return_url = input.returnUrl ?? config.publicUrl;
    try {
      return chargeOutcome(await this.stripe.paymentIntents.create(params, { idempotencyKey: input.idempotencyKey }), input.idempotencyKey);
    } catch (error) {
      return this.chargeError(error, input.idempotencyKey);
    }
  }

  private async chargeError(error: unknown, key: string): Promise<ChargeOutcome> {
    if (error instanceof Stripe.errors.StripeCardError) {
      const intent = error.payment_intent as Intent | undefined;
      const card = cardOf((intent?.last_payment_error?.payment_method ?? error.payment_method) as Stripe.PaymentMethod | undefined);
      return {
        status: 'failed',
        reference: intent?.id ?? `none_${key}`,
        card,
        declineCode: error.decline_code ?? error.code ?? 'card_declined',
        message: error.message,
      };
    }
    // The key was taken by `cancelCharge` (or used with other parameters): this charge is not made.
    if (error instanceof Stripe.errors.StripeIdempotencyError) {
      const seen = await this.retrieveCharge(key);
      if (seen.status === 'succeeded') return { ...seen, card: null };
      if (seen.status === 'failed') return { ...seen, card: null };
      if (seen.status === 'requires_action') return { ...seen, card: null };
      if (seen.status === 'unknown') return { status: 'unknown', reference: `unknown_${key}`, card: null };
      return { status: 'failed', reference: `none_${key}`, card: null, declineCode: 'canceled', message: 'The payment was canceled before it was charged.' };
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      return { status: 'failed', reference: `none_${key}`, card: null, declineCode: error.code ?? 'invalid_request', message: error.message };
    }
    // No answer (a timeout, a connection lost) or Stripe's own error: it may or may not have charged.
    if (isUncertain(error)) return { status: 'unknown', reference: `unknown_${key}`, card: null };
    throw error;
  }

  async ensureCustomer(input: ProcessorCustomerInput): Promise<string> {
    const customer = await this.stripe.customers.create(
      {
        ...(input.email ? { email: input.email } : {}),
        ...(input.name ? { name: input.name } : {}),
        metadata: input.customerId ? { paybase_customer: input.customerId } : {},
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return customer.id;
  }

  async verifyCard(input: { token: string; currency: string; idempotencyKey: string; customer?: string }): Promise<VerificationOutcome> {
    const reference = `none_${input.idempotencyKey}`;
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          payment_method: input.token,
          ...(input.customer ? { customer: input.customer } : {}),
          allowed_payment_method_types: ['card'],
          confirm: true,
          usage: 'off_session',
          metadata: { [PAYBASE_KEY]: input.idempotencyKey },
          expand: ['payment_method'],
        },
        { idempotencyKey: `verify:${input.idempotencyKey}` },
      );
      const card = cardOf(intent.payment_method as Stripe.PaymentMethod | null);
      const method = intent.payment_method as Stripe.PaymentMethod | null;
      if (intent.status === 'succeeded' && card && method) return { status: 'verified', reference: intent.id, card, token: method.id };
      // 3-D Secure: without a return_url Stripe answers `use_stripe_sdk`, which Stripe.js's confirmCardSetup carries out in the page.
      if (intent.status === 'requires_action' && intent.client_secret)
        return { status: 'requires_action', reference: intent.id, clientSecret: intent.client_secret };
      return { status: 'declined', reference: intent.id, ...setupFailure(intent) };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        return { status: 'declined', reference, declineCode: error.decline_code ?? error.code ?? 'card_declined', message: error.message };
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        return { status: 'declined', reference, declineCode: error.code ?? 'invalid_request', message: error.message };
      }
      throw error;
    }
  }

  async retrieveVerification(reference: string): Promise<RetrievedVerification> {
    if (!/^seti_\w+$/.test(reference)) return { status: 'not_found' };
    let intent: Stripe.SetupIntent;
    try {
      intent = await this.stripe.setupIntents.retrieve(reference, { expand: ['payment_method'] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return { status: 'not_found' };
      throw error;
    }
    const made = {
      key: intent.metadata?.[PAYBASE_KEY] ?? null,
      customer: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
    };
    const method = intent.payment_method as Stripe.PaymentMethod | null;
    const card = cardOf(method);
    if (intent.status === 'succeeded' && card && method) return { status: 'verified', ...made, card, token: method.id };
    if (intent.status === 'requires_payment_method' || intent.status === 'canceled') return { status: 'declined', ...made, ...setupFailure(intent) };
    return { status: 'requires_action', ...made };
  }

  async retrieveCharge(idempotencyKey: string): Promise<RetrievedCharge> {
    let found: Intent[];
    try {
      found = await this.intentsByKey(idempotencyKey);
    } catch (error) {
      if (isUncertain(error)) return { status: 'unknown' };
      throw error;
    }
    // The charge itself, not the placeholder a cancel made, when a search shows both.
    const intent = found.find((pi) => pi.metadata[CANCELED_MARK] !== 'true') ?? found[0];
    if (!intent) return { status: 'not_found' };
    const { card: _card, ...outcome } = chargeOutcome(intent, idempotencyKey);
    return outcome.status === 'unknown' ? { status: 'unknown' } : outcome;
  }

  async cancelCharge(input: { idempotencyKey: string; amount: number; currency: string }): Promise<CanceledCharge> {
    const key = input.idempotencyKey;
    try {
      // Taking the key first: a charge request arriving later with it gets an idempotency error, never a charge.
      const placeholder = await this.stripe.paymentIntents.create(
        {
          amount: toStripeAmount(input.amount, input.currency),
          currency: input.currency.toLowerCase(),
          allowed_payment_method_types: ['card'],
          metadata: { [PAYBASE_KEY]: key, [CANCELED_MARK]: 'true' },
        },
        { idempotencyKey: key },
      );
      if (placeholder.status !== 'canceled') await this.stripe.paymentIntents.cancel(placeholder.id, {}, { idempotencyKey: `cancel:${key}` });
      return { status: 'canceled' };
    } catch (error) {
      if (error instanceof UnsupportedStripeAmount) return { status: 'canceled' };
      if (!(error instanceof Stripe.errors.StripeIdempotencyError)) {
        if (isUncertain(error)) return { status: 'unknown' };
        throw error;
      }
    }
    // The charge was made with the key: it is what the cancel answers, unless it still waits for the customer.
    const seen = await this.retrieveCharge(key);
    if (seen.status === 'not_found') return { status: 'unknown' };
    if (seen.status !== 'requires_action') return seen;
    try {
      await this.stripe.paymentIntents.cancel(seen.reference, { cancellation_reason: 'abandoned' }, { idempotencyKey: `cancel:${key}` });
      return { status: 'canceled' };
    } catch (error) {
      // It settled first (the customer authenticated meanwhile): answer how.
      const after = await this.retrieveCharge(key);
      if (after.status === 'succeeded' || after.status === 'failed') return after;
      if (isUncertain(error)) return { status: 'unknown' };
      throw error;
    }
  }

  async refund(input: { chargeReference: string; amount: number; currency: string; idempotencyKey: string }): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.chargeReference, amount: toStripeAmount(input.amount, input.currency), metadata: { [PAYBASE_KEY]: input.idempotencyKey } },
        { idempotencyKey: input.idempotencyKey },
      );
      // A card refund Stripe accepted (`pending` included) goes through; a later failure comes by webhook.
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return {
          status: 'failed',
          reference: refund.id,
          message: `Stripe reports the refund ${refund.status} (${refund.failure_reason ?? 'no reason given'}).`,
        };
      }
      return { status: 'succeeded', reference: refund.id };
    } catch (error) {
      if (error instanceof UnsupportedStripeAmount) return { status: 'failed', reference: `none_${input.idempotencyKey}`, message: error.message };
      if (error instanceof Stripe.errors.StripeInvalidRequestError)
        return { status: 'failed', reference: `none_${input.idempotencyKey}`, message: error.message };
      throw error;
    }
  }

  /** PaymentIntents carrying our key, newest first (Stripe's search; docs/decisions.md). */
  private async intentsByKey(key: string): Promise<Intent[]> {
    if (!/^[\w:.-]+$/.test(key)) throw new Error(`Unexpected characters in idempotency key ${key}`);
    const result = await this.stripe.paymentIntents.search({ query: `metadata['${PAYBASE_KEY}']:'${key}'`, limit: 10 });
    return result.data;
  }
}

/** What a PaymentIntent's state means for the charge made with `key`. */
function chargeOutcome(intent: Intent, key: string): ChargeOutcome {
  const card = cardOf(typeof intent.payment_method === 'object' ? intent.payment_method : null);
  switch (intent.status) {
    case 'succeeded': {
      const method = typeof intent.payment_method === 'object' ? intent.payment_method?.id : intent.payment_method;
      return { status: 'succeeded', reference: intent.id, card, ...(method ? { token: method } : {}) };
    }
    case 'requires_action': {
      const url = intent.next_action?.redirect_to_url?.url;
      if (url) return { status: 'requires_action', reference: intent.id, card, nextAction: { type: 'redirect_to_url', url } satisfies NextAction };
      return { status: 'unknown', reference: intent.id, card };
    }
    case 'canceled':
      return { status: 'failed', reference: intent.id, card, declineCode: 'canceled', message: 'The payment was canceled before it was charged.' };
    case 'requires_payment_method': {
      const failure = intent.last_payment_error;
      if (!failure) return { status: 'unknown', reference: intent.id, card };
      return {
        status: 'failed',
        reference: intent.id,
        card,
        declineCode: failure.decline_code ?? failure.code ?? 'card_declined',
        message: failure.message ?? '',
      };
    }
    default:
      // processing, requires_confirmation, requires_capture: not settled yet (a webhook or a later look tells).
      return { status: 'unknown', reference: intent.id ?? `unknown_${key}`, card };
  }
}

/** Why a SetupIntent did not set its card up: Stripe's last error (a decline, a failed authentication), or its cancellation. */
function setupFailure(intent: Stripe.SetupIntent): { declineCode: string; message: string } {
  const error = intent.last_setup_error;
  if (error) return { declineCode: error.decline_code ?? error.code ?? 'card_declined', message: error.message ?? '' };
  if (intent.status === 'canceled') return { declineCode: 'canceled', message: 'The card setup was canceled.' };
  return { declineCode: 'card_declined', message: 'The card was not set up.' };
}

function cardOf(method: Stripe.PaymentMethod | null | undefined): CardDetails | null {
  const card = method?.card;
  if (!card) return null;
  return { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

function isUncertain(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500)
  );
}

export { fromStripeAmount };
