import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { NextIntlClientProvider } from 'next-intl';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckout } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { clientMessages } from '@/lib/i18n/messages';
import { pageLocale } from '@/lib/server/web/page-locale';
import { OrderSummary, UnavailableNotice } from '@/components/checkout/order-summary';
import { CheckoutForm } from './checkout-form';
import { linkDesign } from './design';
import { countryOptions } from '@/lib/i18n/countries';
import { QuotedTotalProvider } from '@/components/checkout/quoted-total';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const design = await linkDesign((await params).token);
  return { title: customerText(await pageLocale(design?.defaultLocale)).t('checkout.title'), robots: { index: false } };
}

export default async function PayPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const design = await linkDesign(token);
  const locale = await pageLocale(design?.defaultLocale);
  const text = customerText(locale);
  const { t } = text;
  const view = await loadHostedCheckout(getDb(), token, text);
  if (!view) notFound();
  const { cardEntry } = view;
  const stripe = cardEntry.processor === 'stripe' ? { publishableKey: cardEntry.publishableKey, jsUrl: cardEntry.jsUrl } : null;
  // Live Stripe takes real cards: no note. The sandbox and Stripe's test mode say which cards work.
  const testCards = cardEntry.processor === 'sandbox' ? t('common.sandboxCards') : cardEntry.testMode ? t('common.stripeTestCards') : null;
  return (
    <QuotedTotalProvider>
      <main lang={locale} className="mx-auto grid max-w-4xl gap-8 px-6 py-12 md:grid-cols-2">
        <OrderSummary view={view} text={text} withCharges={false} chooseQuantity={!view.unavailableReason}>
          {testCards ? <p className="mt-4 text-xs text-slate-500">{testCards}</p> : null}
        </OrderSummary>
        <section aria-label={t('checkout.paymentSection')}>
          {view.unavailableReason ? (
            <UnavailableNotice title={view.unavailableTitle} reason={view.unavailableReason} />
          ) : (
            <>
              <NextIntlClientProvider locale={locale} messages={clientMessages(locale, 'checkout', 'common')} timeZone="UTC">
                <CheckoutForm
                  token={view.token}
                  locale={locale}
                  total={view.total}
                  taxLines={view.taxLines}
                  countries={view.collectBillingAddress ? countryOptions(locale) : null}
                  subscription={view.subscription}
                  buttonLabel={design?.buttonLabel}
                  stripe={stripe}
                />
              </NextIntlClientProvider>
              <p className="mt-4 text-center text-sm text-slate-600">
                {t('checkout.walletPrompt', { seller: view.sellerName })}{' '}
                <Link href={`/member/pay/${view.token}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                  {t('checkout.walletLink')}
                </Link>
              </p>
            </>
          )}
        </section>
      </main>
    </QuotedTotalProvider>
  );
}
