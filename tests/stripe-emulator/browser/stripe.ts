import type {
  ConfirmCardSetupData,
  ConfirmCardSetupOptions,
  CreatePaymentMethodData,
  PaymentMethodResult,
  SetupIntent,
  SetupIntentResult,
  StripeCardElementOptions,
  StripeElementsOptions,
  StripeError,
} from '@stripe/stripe-js';

/**
 * A stand-in for Stripe.js, served by the Stripe emulator at /v3/ (test code, not Stripe; the
 * emulator serves it compiled, stripe-js.ts). It implements the part Paybase's hosted pages use,
 * with Stripe.js's own types: `Stripe(publishableKey, { locale })`, `elements({ locale })`,
 * `create('card', options)`, `mount`, `on('ready' | 'change' | 'focus' | 'blur')`, `focus`,
 * `clear`, `destroy`, `createPaymentMethod({ type: 'card', card, billing_details })` and
 * `confirmCardSetup(clientSecret)` for a SetupIntent the server confirmed with its card. As in
 * Stripe.js, the card fields live in a frame of Stripe's origin (the emulator's), which posts
 * the card to /v1/payment_methods with the publishable key: the page itself never reads them;
 * a 3-D Secure challenge is the emulator's authentication page in a frame over the page.
 */

type Handler = (event: Record<string, unknown>) => void;

interface FrameMessage {
  type: string;
  id?: number;
  event?: Record<string, unknown>;
  result?: PaymentMethodResult;
}

const emulatorOrigin = new URL((document.currentScript as HTMLScriptElement).src).origin;
let framesMade = 0;

/** One card element: its frame, the handlers the page registered, and its requests waiting for an answer. */
class CardElement {
  private frame: HTMLIFrameElement | null = null;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly waiting = new Map<number, (result: PaymentMethodResult) => void>();
  private requests = 0;
  private ready: Promise<void>;
  private markReady: () => void = () => {};
  private readonly listener = (event: MessageEvent<FrameMessage>) => {
    if (event.origin !== emulatorOrigin || !this.frame || event.source !== this.frame.contentWindow) return;
    const message = event.data;
    if (message.type === 'result' && message.id !== undefined && message.result) {
      this.waiting.get(message.id)?.(message.result);
      this.waiting.delete(message.id);
      return;
    }
    if (message.type === 'ready') this.markReady();
    if (message.type === 'resize' && typeof message.event?.height === 'number') this.frame.style.height = `${message.event.height}px`;
    for (const handler of this.handlers.get(message.type) ?? []) handler({ elementType: 'card', ...message.event });
  };

  constructor(
    private readonly publishableKey: string,
    private readonly options: StripeCardElementOptions & { locale?: string },
  ) {
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
  }

  mount(target: string | HTMLElement) {
    const container = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!container) throw new Error(`The selector you specified (${String(target)}) applies to no DOM elements that are currently on the page.`);
    const frame = document.createElement('iframe');
    frame.name = `__privateStripeFrame${++framesMade}`;
    frame.title = 'Secure card payment input frame';
    frame.setAttribute('frameborder', '0');
    frame.setAttribute('scrolling', 'no');
    frame.style.cssText = 'border: none; margin: 0; padding: 0; width: 100%; height: 24px; display: block; overflow: hidden;';
    // The key and the page's origin travel in the fragment, as Stripe's frames take them: never sent to a server.
    const settings = new URLSearchParams({
      key: this.publishableKey,
      origin: window.location.origin,
      locale: this.options.locale ?? 'auto',
      style: JSON.stringify(this.options.style?.base ?? {}),
    });
    frame.src = `${emulatorOrigin}/emulator/elements/card#${settings}`;
    window.addEventListener('message', this.listener);
    container.replaceChildren(frame);
    this.frame = frame;
  }

  on(type: string, handler: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
    return this;
  }

  off(type: string, handler?: Handler) {
    this.handlers.set(type, handler ? (this.handlers.get(type) ?? []).filter((h) => h !== handler) : []);
    return this;
  }

  focus() {
    this.post({ type: 'focus' });
  }

  clear() {
    this.post({ type: 'clear' });
  }

  destroy() {
    window.removeEventListener('message', this.listener);
    this.frame?.remove();
    this.frame = null;
  }

  /** Asks the frame to make the PaymentMethod from what the customer typed. */
  async createPaymentMethod(billingDetails: Record<string, unknown>): Promise<PaymentMethodResult> {
    await this.ready;
    const id = ++this.requests;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.post({ type: 'createPaymentMethod', id, billingDetails });
    });
  }

  private post(message: Record<string, unknown>) {
    this.frame?.contentWindow?.postMessage(message, emulatorOrigin);
  }
}

/** A SetupIntent as Stripe.js may see it: `GET /v1/setup_intents/{id}` with the publishable key and the client secret. */
async function retrieveSetupIntent(publishableKey: string, clientSecret: string): Promise<SetupIntentResult> {
  const id = clientSecret.split('_secret_')[0] ?? '';
  try {
    const answer = await fetch(`${emulatorOrigin}/v1/setup_intents/${encodeURIComponent(id)}?client_secret=${encodeURIComponent(clientSecret)}`, {
      headers: { authorization: `Bearer ${publishableKey}` },
    });
    const json = await answer.json();
    return answer.ok ? { setupIntent: json as SetupIntent } : { error: json.error as StripeError };
  } catch {
    return { error: { type: 'api_connection_error', message: 'We could not reach Stripe. Check your connection and try again.' } };
  }
}

/**
 * The 3-D Secure challenge: the issuer's page (the emulator's) in a frame over the page, until it
 * says it is done. `origin` tells the page whom to tell.
 */
function showChallenge(pageUrl: string, intentId: string): Promise<void> {
  const overlay = document.createElement('div');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', '3D Secure authentication');
  overlay.style.cssText =
    'position: fixed; inset: 0; z-index: 2147483647; display: flex; align-items: center; justify-content: center; background: rgba(15, 23, 42, 0.6);';
  const frame = document.createElement('iframe');
  frame.name = `__privateStripeFrame${++framesMade}`;
  frame.title = '3D Secure authentication';
  frame.style.cssText = 'width: min(500px, 94vw); height: min(600px, 90vh); border: 0; border-radius: 8px; background: #fff;';
  const url = new URL(pageUrl);
  url.searchParams.set('origin', window.location.origin);
  frame.src = url.toString();
  overlay.append(frame);
  document.body.append(overlay);
  return new Promise((resolve) => {
    const listener = (event: MessageEvent<{ type?: string; intent?: string }>) => {
      if (event.origin !== emulatorOrigin || event.source !== frame.contentWindow) return;
      if (event.data?.type !== 'stripe-emulator:authentication-finished' || event.data.intent !== intentId) return;
      window.removeEventListener('message', listener);
      overlay.remove();
      resolve();
    };
    window.addEventListener('message', listener);
  });
}

/**
 * `confirmCardSetup(clientSecret)` for a SetupIntent that already has its card (the server
 * confirmed it): carries out the 3-D Secure challenge it asks for, then answers the SetupIntent
 * as it ended: `{ setupIntent }` when it succeeded, else `{ error }` with Stripe's
 * `last_setup_error` and the intent.
 */
async function confirmCardSetup(
  publishableKey: string,
  clientSecret: string,
  data?: ConfirmCardSetupData,
  options: ConfirmCardSetupOptions = {},
): Promise<SetupIntentResult> {
  if (data?.payment_method !== undefined) {
    throw new Error("The Stripe emulator's Stripe.js confirms a SetupIntent that already has its PaymentMethod (confirmed by the server) only.");
  }
  const found = await retrieveSetupIntent(publishableKey, clientSecret);
  if (found.error) return found;
  let intent = found.setupIntent;
  const action = intent.next_action as { type: string; use_stripe_sdk?: { stripe_js?: string } } | null;
  if (intent.status === 'requires_action' && action?.type === 'use_stripe_sdk' && action.use_stripe_sdk?.stripe_js && options.handleActions !== false) {
    await showChallenge(action.use_stripe_sdk.stripe_js, intent.id);
    const after = await retrieveSetupIntent(publishableKey, clientSecret);
    if (after.error) return after;
    intent = after.setupIntent;
  }
  if (intent.status === 'succeeded' || (options.handleActions === false && intent.status === 'requires_action')) return { setupIntent: intent };
  const failure = intent.last_setup_error;
  return {
    error: failure
      ? { ...failure, type: failure.type as StripeError['type'], setup_intent: intent }
      : {
          type: 'invalid_request_error',
          code: 'setup_intent_unexpected_state',
          message: `The SetupIntent's status is ${intent.status}.`,
          setup_intent: intent,
        },
  };
}

function StripeStandIn(publishableKey: string, options: { locale?: string } = {}) {
  if (!/^pk_(?:test|live)_\w+$/.test(String(publishableKey))) {
    throw new Error('Invalid value for Stripe(): apiKey should be a publishable key (pk_test_… or pk_live_…).');
  }
  return {
    elements(elementsOptions: Pick<StripeElementsOptions, 'locale'> = {}) {
      return {
        create(type: string, elementOptions: StripeCardElementOptions = {}) {
          if (type !== 'card') throw new Error(`The Stripe emulator's Stripe.js makes card elements only, not '${type}'.`);
          return new CardElement(publishableKey, { ...elementOptions, locale: elementsOptions.locale ?? options.locale });
        },
      };
    },
    async createPaymentMethod(data: CreatePaymentMethodData): Promise<PaymentMethodResult> {
      if (data.type !== 'card' || !('card' in data) || !(data.card instanceof CardElement)) {
        throw new Error("The Stripe emulator's Stripe.js makes card PaymentMethods from its card element only.");
      }
      return data.card.createPaymentMethod({ ...data.billing_details });
    },
    confirmCardSetup(clientSecret: string, data?: ConfirmCardSetupData, setupOptions?: ConfirmCardSetupOptions): Promise<SetupIntentResult> {
      return confirmCardSetup(publishableKey, clientSecret, data, setupOptions);
    },
  };
}

(window as unknown as { Stripe: typeof StripeStandIn }).Stripe = StripeStandIn;
