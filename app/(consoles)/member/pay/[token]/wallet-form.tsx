'use client';

import { useEffect, useRef, useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import type { WalletCard } from '@/lib/checkout/wallet';
import { payWithWalletAction } from './actions';
import { quoteAction } from '@/app/pay/[token]/actions';
import { UnavailableNotice } from '@/components/checkout/order-summary';
import { useChosenQuantity, useSetQuotedTotal } from '@/components/checkout/quoted-total';

/** `total` is the link's; a quantity chosen in the summary is quoted, and Pay shows and charges that total. */
export function WalletPayForm({
  token,
  locale,
  total,
  payVerb,
  subscriptionLabel,
  cards,
}: {
  token: string;
  locale: string;
  total: string;
  payVerb: string;
  subscriptionLabel: string | null;
  cards: WalletCard[];
}) {
  const t = useTranslations();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // A new key per attempt: a double click pays once, a retry after a decline is a new attempt.
  const attemptKey = useRef(crypto.randomUUID());
  const [message, setMessage] = useState<{ tone: 'error' | 'declined'; text: string } | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [quotedTotal, setQuotedTotal] = useState(total);
  const setSummaryTotal = useSetQuotedTotal();
  const quantity = useChosenQuantity();
  const [quoting, startQuote] = useTransition();
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-quoted when the quantity changes only.
  useEffect(() => {
    if (quantity === null) return;
    startQuote(async () => {
      const quote = await quoteAction(token, { promotionCode: '', country: '', quantity }, locale);
      if (!quote.ok) return setMessage({ tone: 'error', text: quote.message });
      setMessage(null);
      setQuotedTotal(quote.total);
      setSummaryTotal(quote.total);
    });
  }, [quantity]);

  if (unavailable) {
    return <UnavailableNotice title={t('checkout.cannotBePaid')} reason={unavailable} />;
  }

  return (
    <form
      aria-label={t('wallet.payForm')}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        if (quantity !== null) data.set('quantity', String(quantity));
        setMessage(null);
        startTransition(async () => {
          const result = await payWithWalletAction(token, attemptKey.current, locale, data);
          // The card asks for authentication (3-D Secure): its page sends the customer back to the result page.
          if (result.kind === 'requires_action') {
            window.location.assign(result.url);
            return;
          }
          if (result.kind === 'paid' || result.kind === 'processing') {
            router.push(`/pay/${token}/success?checkoutId=${encodeURIComponent(result.checkoutId)}`);
            return;
          }
          attemptKey.current = crypto.randomUUID();
          if (result.kind === 'declined') setMessage({ tone: 'declined', text: t('wallet.declined', { reason: result.message }) });
          else if (result.kind === 'unavailable') setUnavailable(result.message);
          else if (result.kind === 'invalid') setMessage({ tone: 'error', text: result.message });
        });
      }}
    >
      <h2 className="text-lg font-semibold">{t('wallet.savedCardHeading')}</h2>
      {message ? (
        <div role="alert" data-testid="wallet-error" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {message.text}
        </div>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('wallet.card')}</legend>
        <div className="mt-2 space-y-2">
          {cards.map((card, index) => (
            <label
              key={card.id}
              className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input type="radio" name="paymentMethodId" value={card.id} defaultChecked={index === 0} className="h-4 w-4 accent-brand-600" />
              <span className="font-medium">{card.label}</span>
              <span className="text-slate-600">{t('wallet.expires', { expiry: card.expiry })}</span>
              {card.isDefault ? <span className="ml-auto text-xs text-slate-600">{t('common.default')}</span> : null}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block text-sm font-medium">
        {t('wallet.promotionCode')} <span className="font-normal text-slate-500">{t('wallet.optional')}</span>
        <input name="promotionCode" className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm" />
      </label>
      <button
        type="submit"
        disabled={pending || quoting}
        className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? t('wallet.paying') : (subscriptionLabel ?? t('checkout.pay', { verb: payVerb, total: quotedTotal }))}
      </button>
    </form>
  );
}
