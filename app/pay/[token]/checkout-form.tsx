'use client';

import { useEffect, useRef, useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import type { SubscriptionTerms } from '@/lib/checkout/subscription-terms';
import { applyPromotionAction, payAction } from './actions';

type Field = 'email' | 'name' | 'cardNumber' | 'expiry' | 'cvc' | 'promotionCode';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-500';

function newAttemptKey(): string {
  return crypto.randomUUID();
}

/** `buttonLabel`: the verb of a one-time payment's button, from the seller's design (default Pay). */
export function CheckoutForm({ token, total, subscription, buttonLabel = 'Pay' }: { token: string; total: string; subscription: SubscriptionTerms | null; buttonLabel?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // A new key per attempt: a double click pays once, a retry after a decline is a new attempt.
  const attemptKey = useRef(newAttemptKey());
  const [declined, setDeclined] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const [promotion, setPromotion] = useState<{ code: string; discount: string; total: string; subscription: SubscriptionTerms | null } | null>(null);
  const [promotionInput, setPromotionInput] = useState('');
  const [promotionMessage, setPromotionMessage] = useState<string | null>(null);
  const declineRef = useRef<HTMLDivElement>(null);
  // After a decline, focus moves to the message so the customer (and a screen reader) hears why.
  useEffect(() => {
    if (declined) declineRef.current?.focus();
  }, [declined]);
  const terms = promotion?.subscription ?? subscription;

  function submit(formData: FormData) {
    setDeclined(null);
    setFieldError(null);
    setPromotionMessage(null);
    startTransition(async () => {
      const result = await payAction(token, attemptKey.current, formData);
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

  function applyPromotion() {
    setPromotionMessage(null);
    setDeclined(null);
    startTransition(async () => {
      const quote = await applyPromotionAction(token, promotionInput);
      if (quote.ok) setPromotion({ code: quote.code, discount: quote.discount, total: quote.total, subscription: quote.subscription });
      else {
        setPromotion(null);
        setPromotionMessage(quote.message);
      }
    });
  }

  if (unavailable) {
    return (
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-900">
        <h2 className="font-semibold">This link cannot be paid</h2>
        <p className="mt-1">{unavailable}</p>
      </div>
    );
  }

  const error = (field: Field) =>
    fieldError?.field === field ? (
      <p className="mt-1 text-sm text-red-600" id={`${field}-error`}>
        {fieldError.message}
      </p>
    ) : null;
  const invalid = (field: Field) => (fieldError?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {});

  return (
    // onSubmit rather than a form action: React resets a form after its action runs, and a
    // customer retrying after a decline must keep what they typed.
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit(new FormData(event.currentTarget));
      }}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold">Pay with card</h2>
      {declined && (
        <div
          ref={declineRef}
          tabIndex={-1}
          role="alert"
          data-testid="decline"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 outline-none focus-visible:ring-2 focus-visible:ring-red-400"
        >
          <strong>Payment declined.</strong> {declined} Check your details or use another card, then try again.
        </div>
      )}
      <label className="block text-sm font-medium">
        Email
        <input name="email" type="email" required autoComplete="email" className={inputClass} {...invalid('email')} />
      </label>
      {error('email')}
      <label className="block text-sm font-medium">
        Name
        <input name="name" autoComplete="name" className={inputClass} {...invalid('name')} />
      </label>
      {error('name')}
      <label className="block text-sm font-medium">
        Card number
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
            Expiry
            <input name="expiry" placeholder="MM / YY" autoComplete="cc-exp" required className={inputClass} {...invalid('expiry')} />
          </label>
          {error('expiry')}
        </div>
        <div>
          <label className="block text-sm font-medium">
            CVC
            <input name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required className={inputClass} {...invalid('cvc')} />
          </label>
          {error('cvc')}
        </div>
      </div>
      <div>
        <label className="block text-sm font-medium" htmlFor="promotionCode">
          Promotion code
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id="promotionCode"
            name="promotionCode"
            value={promotion?.code ?? promotionInput}
            onChange={(event) => {
              setPromotion(null);
              setPromotionInput(event.target.value);
            }}
            className={inputClass.replace('mt-1 ', '')}
            {...(promotionMessage ? { 'aria-invalid': true, 'aria-describedby': 'promotion-refused' } : invalid('promotionCode'))}
          />
          <button
            type="button"
            onClick={applyPromotion}
            disabled={pending || !promotionInput.trim()}
            className="rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-50 disabled:opacity-50"
          >
            Apply
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
      {terms ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="subscription-terms">
          {terms.summary}. Your card is saved for the renewals; cancel any time in the customer portal.
        </p>
      ) : (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="saveCard" className="h-4 w-4" />
          Save this card for future payments to this seller
        </label>
      )}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? 'Processing…' : terms ? terms.buttonLabel : `${buttonLabel} ${promotion?.total ?? total}`}
      </button>
    </form>
  );
}
