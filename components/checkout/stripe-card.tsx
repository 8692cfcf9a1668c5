'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Stripe, StripeCardElement, StripeConstructor, StripeElementLocale } from '@stripe/stripe-js';

/**
 * Card entry through Stripe.js (docs/processors.md, "PCI scope"): Stripe's card element is a frame
 * of Stripe's, mounted in the page, and `createPaymentMethod` turns what the customer typed into
 * a PaymentMethod in the browser. Only its id (`pm_…`) is posted to Paybase. A card being saved
 * that asks for 3-D Secure is authenticated with `confirmCardSetup` ("Saved cards and 3-D Secure").
 */
export interface StripeCardSettings {
  publishableKey: string;
  /** STRIPE_JS_URL: the page's Content-Security-Policy allows its origin in Stripe mode (lib/http/security-headers.ts). */
  jsUrl: string;
}

let loading: { url: string; script: Promise<StripeConstructor> } | undefined;

/** Adds Stripe.js to the page once; the nonce'd bundle adding it lets it run (`'strict-dynamic'`). */
function loadStripeJs(url: string): Promise<StripeConstructor> {
  if (loading?.url === url) return loading.script;
  const script = new Promise<StripeConstructor>((resolve, reject) => {
    const element = document.createElement('script');
    element.src = url;
    element.async = true;
    element.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not start')));
    element.onerror = () => {
      loading = undefined;
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(element);
  });
  loading = { url, script };
  return script;
}

export type PaymentMethodMade = { id: string } | { error: string };

export interface StripeCard {
  container: React.RefObject<HTMLDivElement | null>;
  status: 'loading' | 'ready' | 'failed';
  focused: boolean;
  /** What the card element says is wrong with what was typed (Stripe's words, in the page's language). */
  error: string | null;
  createPaymentMethod(billing: { name?: string; email?: string }): Promise<PaymentMethodMade>;
  /**
   * Has the customer authenticate a card being saved (3-D Secure): Stripe.js's `confirmCardSetup`
   * with the SetupIntent's client secret shows the issuer's challenge over the page. How it ended
   * is the server's to ask Stripe, so nothing is answered here.
   */
  confirmCardSetup(clientSecret: string): Promise<void>;
  /** Empties the card element (after the card was saved). */
  clear(): void;
  /** Puts the cursor in the card element (after a refusal of the card). */
  focus(): void;
}

/**
 * Loads Stripe.js, mounts its card element in `container` and makes PaymentMethods of it; does
 * nothing without settings (the sandbox). `onEdit`: the customer changed the card (a refusal about the previous one is stale).
 */
export function useStripeCard(settings: StripeCardSettings | null, locale: string, onEdit?: () => void): StripeCard {
  const container = useRef<HTMLDivElement>(null);
  const edited = useRef(onEdit);
  edited.current = onEdit;
  const mounted = useRef<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [status, setStatus] = useState<StripeCard['status']>('loading');
  const [focused, setFocused] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const jsUrl = settings?.jsUrl;
  const publishableKey = settings?.publishableKey;
  useEffect(() => {
    if (!jsUrl || !publishableKey) return;
    let card: StripeCardElement | undefined;
    let gone = false;
    loadStripeJs(jsUrl).then(
      (StripeJs) => {
        if (gone || !container.current) return;
        const stripe = StripeJs(publishableKey, { locale: locale as StripeElementLocale });
        card = stripe.elements({ locale: locale as StripeElementLocale }).create('card', {
          style: { base: { fontSize: '16px', color: '#0f172a', '::placeholder': { color: '#94a3b8' } } },
        });
        card.on('ready', () => setStatus('ready'));
        card.on('change', (event) => {
          setError(event.error?.message ?? null);
          edited.current?.();
        });
        card.on('focus', () => setFocused(true));
        card.on('blur', () => setFocused(false));
        card.mount(container.current);
        mounted.current = { stripe, card };
      },
      () => !gone && setStatus('failed'),
    );
    return () => {
      gone = true;
      card?.destroy();
      mounted.current = null;
    };
  }, [jsUrl, publishableKey, locale]);

  async function createPaymentMethod(billing: { name?: string; email?: string }): Promise<PaymentMethodMade> {
    const ready = mounted.current;
    if (!ready) return { error: '' };
    const billingDetails = Object.fromEntries(Object.entries(billing).filter(([, value]) => value));
    const result = await ready.stripe.createPaymentMethod({ type: 'card', card: ready.card, billing_details: billingDetails });
    if (result.error) return { error: result.error.message ?? '' };
    return { id: result.paymentMethod.id };
  }

  async function confirmCardSetup(clientSecret: string): Promise<void> {
    // A failed or abandoned challenge, or Stripe.js failing, leaves the SetupIntent unfinished at Stripe, which the server reads.
    await mounted.current?.stripe.confirmCardSetup(clientSecret).catch(() => undefined);
  }

  const clear = useCallback(() => mounted.current?.card.clear(), []);
  const focus = useCallback(() => mounted.current?.card.focus(), []);
  return { container, status, focused, error, createPaymentMethod, confirmCardSetup, clear, focus };
}

/**
 * The card element's place on the page, styled as the page's own fields, with Stripe's messages
 * under it. `message` is the form's own (a refusal after submitting), shown instead.
 */
export function StripeCardField({ card, label, unavailable, message }: { card: StripeCard; label: string; unavailable: string; message?: string | null }) {
  const shown = message || card.error;
  return (
    <fieldset aria-describedby={shown ? 'cardNumber-error' : undefined} aria-busy={card.status === 'loading'}>
      <legend className="block text-sm font-medium">{label}</legend>
      <div
        ref={card.container}
        data-testid="stripe-card"
        className={`control mt-1 min-h-[42px] rounded-md border bg-white px-3 py-[9px] shadow-sm ${
          shown ? 'border-red-500' : card.focused ? 'border-brand-600 ring-1 ring-brand-600' : 'border-slate-300'
        }`}
      />
      {card.status === 'failed' ? (
        <p className="mt-1 text-sm text-red-600" role="alert">
          {unavailable}
        </p>
      ) : null}
      {shown ? (
        <p className="mt-1 text-sm text-red-600" id="cardNumber-error" role="alert">
          {shown}
        </p>
      ) : null}
    </fieldset>
  );
}
