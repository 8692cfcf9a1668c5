import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { NextIntlClientProvider } from 'next-intl';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckout } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { clientMessages } from '@/lib/i18n/messages';
import { pageLocale } from '@/lib/i18n/page-locale';
import { SubscriptionSummary } from '@/components/checkout/subscription-summary';
import { CheckoutForm } from './checkout-form';
import { linkDesign } from './design';

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
  return (
    <main lang={locale} className="mx-auto grid max-w-4xl gap-8 px-6 py-12 md:grid-cols-2">
      <section aria-labelledby="order-heading">
        <p className="text-sm font-medium text-slate-500" data-testid="seller">
          {view.sellerName}
        </p>
        <h1 id="order-heading" className="mt-1 text-2xl font-semibold tracking-tight">
          {view.name}
        </h1>
        {view.description && <p className="mt-2 text-slate-600">{view.description}</p>}
        {view.subscription ? (
          <SubscriptionSummary terms={view.subscription} text={text} withCharges={false} />
        ) : (
          <dl className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-5 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">{t('checkout.price')}</dt>
              <dd>{view.unitAmount}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">{t('checkout.quantity')}</dt>
              <dd data-testid="quantity">{view.quantity}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-100 pt-2 text-base font-semibold">
              <dt>{t('checkout.total')}</dt>
              <dd data-testid="list-total">{view.total}</dd>
            </div>
          </dl>
        )}
        <p className="mt-4 text-xs text-slate-500">{t('common.sandboxCards')}</p>
      </section>
      <section aria-label={t('checkout.paymentSection')}>
        {view.unavailableReason ? (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-900">
            <h2 className="font-semibold" data-testid="unavailable-title">
              {view.unavailableTitle}
            </h2>
            <p className="mt-1" data-testid="unavailable-reason">
              {view.unavailableReason}
            </p>
          </div>
        ) : (
          <>
            <NextIntlClientProvider locale={locale} messages={clientMessages(locale, 'checkout', 'common')} timeZone="UTC">
              <CheckoutForm token={view.token} locale={locale} total={view.total} subscription={view.subscription} buttonLabel={design?.buttonLabel} />
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
  );
}
