'use client';

import { useEffect, useRef, useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import type { SubscriptionTerms } from '@/lib/checkout/subscription-terms';
import type { HostedFormField, QuotedTaxLine } from '@/lib/checkout/hosted';
import { payAction, quoteAction } from './actions';
import { BillingAddressFields, TaxLines, type CountryOption } from './billing-fields';
import { useChosenQuantity, useSetQuotedTotal } from '@/components/checkout/quoted-total';
import { UnavailableNotice } from '@/components/checkout/order-summary';
import { StripeCardField, useStripeCard, type StripeCardSettings } from '@/components/checkout/stripe-card';

type Field = HostedFormField;

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-500';

function newAttemptKey(): string {
  return crypto.randomUUID();
}

/**
 * `buttonLabel`: the verb of a one-time payment's button, from the seller's design (default Pay).
 * `stripe`: in Stripe mode the card is entered in Stripe.js's card element and only the
 * PaymentMethod it makes is posted (lib/payments/card-entry.ts); null: the sandbox's card fields.
 */
export function CheckoutForm({
  token,
  locale,
  total,
  taxLines = [],
  countries = null,
  subscription,
  buttonLabel = 'Pay',
  stripe = null,
}: {
  token: string;
  locale: string;
  total: string;
  taxLines?: QuotedTaxLine[];
  /** The countries to choose a billing address in, when the seller collects one; null: not asked. */
  countries?: CountryOption[] | null;
  subscription: SubscriptionTerms | null;
  buttonLabel?: string;
  stripe?: StripeCardSettings | null;
}) {
  const t = useTranslations();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // A new key per attempt: a double click pays once, a retry after a decline is a new attempt.
  const attemptKey = useRef(newAttemptKey());
  const [declined, setDeclined] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const [promotion, setPromotion] = useState<{ code: string; discount: string } | null>(null);
  const [promotionInput, setPromotionInput] = useState('');
  const [promotionMessage, setPromotionMessage] = useState<string | null>(null);
  // The totals for the code applied and the country chosen: what Pay charges.
  const [quoted, setQuoted] = useState<{ total: string; taxLines: QuotedTaxLine[]; subscription: SubscriptionTerms | null }>({
    total,
    taxLines,
    subscription,
  });
  const [country, setCountry] = useState('');
  const setSummaryTotal = useSetQuotedTotal();
  const quantity = useChosenQuantity();
  const stripeCard = useStripeCard(stripe, locale, () => setFieldError((shown) => (shown?.field === 'cardNumber' ? null : shown)));
  const declineRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // After a decline, focus moves to the message so the customer (and a screen reader) hears why.
  useEffect(() => {
    if (declined) declineRef.current?.focus();
  }, [declined]);
  // A refused field takes the focus; its message (an alert, and the field's description) says why.
  useEffect(() => {
    if (!fieldError) return;
    if (stripe && fieldError.field === 'cardNumber') stripeCard.focus();
    else formRef.current?.querySelector<HTMLElement>(`[aria-describedby~="${fieldError.field}-error"]`)?.focus();
  }, [fieldError, stripe, stripeCard.focus]);
  const terms = quoted.subscription;
  // A quantity chosen in the summary: the totals follow it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-quoted when the quantity changes only; the code and country are read as they stand.
  useEffect(() => {
    if (quantity !== null) requote(promotion?.code ?? '', country);
  }, [quantity]);

  function submit(formData: FormData) {
    setDeclined(null);
    setFieldError(null);
    setPromotionMessage(null);
    startTransition(async () => {
      if (stripe) {
        // The card goes from the browser to Stripe; Paybase receives only the PaymentMethod's id.
        const made = await stripeCard.createPaymentMethod({ name: String(formData.get('name') ?? ''), email: String(formData.get('email') ?? '') });
        if ('error' in made) {
          setFieldError({ field: 'cardNumber', message: made.error });
          return;
        }
        formData.set('paymentMethod', made.id);
      }
      if (quantity !== null) formData.set('quantity', String(quantity));
      let result = await payAction(token, attemptKey.current, locale, formData);
      // The card kept for a trial asks for 3-D Secure: Stripe.js shows the challenge, then the same attempt finishes it.
      if (result.kind === 'authenticate_card') {
        await stripeCard.confirmCardSetup(result.clientSecret);
        formData.set('cardVerification', result.setupIntent);
        result = await payAction(token, attemptKey.current, locale, formData);
      }
      // The card asks for authentication (3-D Secure): its page sends the customer back to the result page.
      if (result.kind === 'requires_action') {
        window.location.assign(result.url);
        return;
      }
      if (result.kind === 'paid' || result.kind === 'processing') {
        router.push(`/pay/${token}/success?checkoutId=${encodeURIComponent(result.checkoutId)}`);
        return;
      }
      attemptKey.current = newAttemptKey();
      if (result.kind === 'declined') setDeclined(result.message);
      else if (result.kind === 'unavailable') setUnavailable(result.message);
      else if (result.kind === 'invalid') setFieldError({ field: result.field, message: result.message });
    });
  }

  function requote(code: string, chosenCountry: string) {
    setPromotionMessage(null);
    setDeclined(null);
    startTransition(async () => {
      const quote = await quoteAction(token, { promotionCode: code, country: chosenCountry, quantity: quantity ?? undefined }, locale);
      if (!quote.ok) {
        setPromotion(null);
        setPromotionMessage(quote.message);
        return;
      }
      setQuoted({ total: quote.total, taxLines: quote.taxLines, subscription: quote.subscription });
      setSummaryTotal(quote.total);
      setPromotion(quote.code ? { code: quote.code, discount: quote.discount ?? '' } : null);
    });
  }

  if (unavailable) {
    return <UnavailableNotice title={t('checkout.cannotBePaid')} reason={unavailable} />;
  }

  const error = (field: Field) =>
    fieldError?.field === field ? (
      <p className="mt-1 text-sm text-red-600" id={`${field}-error`} role="alert">
        {fieldError.message}
      </p>
    ) : null;
  const invalid = (field: Field) => (fieldError?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {});

  return (
    // onSubmit rather than a form action: React resets a form after its action runs, and a
    // customer retrying after a decline must keep what they typed.
    <form
      ref={formRef}
      onSubmit={(event) => {
        event.preventDefault();
        submit(new FormData(event.currentTarget));
      }}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 className="text-lg font-semibold">{t('checkout.payWithCard')}</h2>
      {declined && (
        <div
          ref={declineRef}
          tabIndex={-1}
          role="alert"
          data-testid="decline"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 outline-none focus-visible:ring-2 focus-visible:ring-red-400"
        >
          {t.rich('checkout.declinedMessage', { reason: declined, strong: (chunks) => <strong>{chunks}</strong> })}
        </div>
      )}
      <label className="block text-sm font-medium">
        {t('common.email')}
        <input name="email" type="email" required autoComplete="email" className={inputClass} {...invalid('email')} />
      </label>
      {error('email')}
      <label className="block text-sm font-medium">
        {t('checkout.name')}
        <input name="name" autoComplete="name" className={inputClass} {...invalid('name')} />
      </label>
      {error('name')}
      {stripe ? (
        <StripeCardField
          card={stripeCard}
          label={t('checkout.card')}
          unavailable={t('checkout.cardFormUnavailable')}
          message={fieldError?.field === 'cardNumber' ? fieldError.message : null}
        />
      ) : (
        <SandboxCardFields error={error} invalid={invalid} />
      )}
      <div>
        <label className="block text-sm font-medium" htmlFor="promotionCode">
          {t('checkout.promotionCode')}
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id="promotionCode"
            name="promotionCode"
            value={promotion?.code ?? promotionInput}
            onChange={(event) => {
              // Editing an applied code takes its discount off the total until Apply.
              if (promotion) requote('', country);
              setPromotion(null);
              setPromotionInput(event.target.value);
            }}
            className={inputClass.replace('mt-1 ', '')}
            {...(promotionMessage ? { 'aria-invalid': true, 'aria-describedby': 'promotion-refused' } : invalid('promotionCode'))}
          />
          <button
            type="button"
            onClick={() => requote(promotionInput, country)}
            disabled={pending || !promotionInput.trim()}
            className="whitespace-nowrap rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-50 disabled:opacity-50"
          >
            {t('checkout.apply')}
          </button>
        </div>
        {promotion && (
          <p className="mt-1 text-sm text-green-700" data-testid="promotion-applied">
            {promotion.code}: −{promotion.discount}
          </p>
        )}
        {promotionMessage && (
          <p className="mt-1 text-sm text-red-600" role="alert" id="promotion-refused" data-testid="promotion-refused">
            {promotionMessage}
          </p>
        )}
        {error('promotionCode')}
      </div>
      {countries ? (
        <BillingAddressFields
          countries={countries}
          invalid={invalid}
          error={error}
          onCountry={(chosen) => {
            setCountry(chosen);
            requote(promotion?.code ?? '', chosen);
          }}
        />
      ) : null}
      <TaxLines lines={quoted.taxLines} total={quoted.total} />
      {terms ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="subscription-terms">
          {t('checkout.subscriptionCardNote', { summary: terms.summary })}
        </p>
      ) : (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="saveCard" className="h-4 w-4" />
          {t('checkout.saveCard')}
        </label>
      )}
      <button
        type="submit"
        disabled={pending || (stripe !== null && stripeCard.status !== 'ready')}
        className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? t('checkout.processing') : terms ? terms.buttonLabel : t('checkout.pay', { verb: buttonLabel, total: quoted.total })}
      </button>
    </form>
  );
}

/** The sandbox's own card fields: the card is posted to Paybase and tokenized in memory (test cards only). */
function SandboxCardFields({
  error,
  invalid,
}: {
  error: (field: Field) => React.ReactNode;
  invalid: (field: Field) => { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}) {
  const t = useTranslations();
  return (
    <>
      <label className="block text-sm font-medium">
        {t('common.cardNumber')}
        <input
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          required
          className={inputClass}
          {...invalid('cardNumber')}
        />
      </label>
      {error('cardNumber')}
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label className="block text-sm font-medium">
            {t('common.expiry')}
            <input name="expiry" placeholder={t('checkout.expiryPlaceholder')} autoComplete="cc-exp" required className={inputClass} {...invalid('expiry')} />
          </label>
          {error('expiry')}
        </div>
        <div>
          <label className="block text-sm font-medium">
            {t('common.cvc')}
            <input name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required className={inputClass} {...invalid('cvc')} />
          </label>
          {error('cvc')}
        </div>
      </div>
    </>
  );
}
