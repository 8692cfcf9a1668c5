import type { CreatePaymentMethodData, PaymentMethodResult, StripeCardElementOptions, StripeElementsOptions } from '@stripe/stripe-js';

/**
 * A stand-in for Stripe.js, served by the Stripe emulator at /v3/ (test code, not Stripe; the
 * emulator serves it compiled, stripe-js.ts). It implements the part Paybase's hosted pages use,
 * with Stripe.js's own types: `Stripe(publishableKey, { locale })`, `elements({ locale })`,
 * `create('card', options)`, `mount`, `on('ready' | 'change' | 'focus' | 'blur')`, `focus`,
 * `clear`, `destroy` and `createPaymentMethod({ type: 'card', card, billing_details })`. As in
 * Stripe.js, the card fields live in a frame of Stripe's origin (the emulator's), which posts
 * the card to /v1/payment_methods with the publishable key: the page itself never reads them.
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
  };
}

(window as unknown as { Stripe: typeof StripeStandIn }).Stripe = StripeStandIn;
