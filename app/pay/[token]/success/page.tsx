import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckoutResult, type HostedCheckoutResult, type SubscriptionNextSteps } from '@/lib/checkout/hosted-result';
import { customerText, type CustomerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { RedirectSoon } from './redirect-soon';
import { linkDesign } from '../design';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const design = await linkDesign((await params).token);
  return { title: customerText(await pageLocale(design?.defaultLocale)).t('result.title'), robots: { index: false } };
}

export default async function SuccessPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ checkoutId?: string }> }) {
  const { token } = await params;
  const { checkoutId } = await searchParams;
  const design = await linkDesign(token);
  const text = customerText(await pageLocale(design?.defaultLocale));
  const { t } = text;
  const result = checkoutId ? await loadHostedCheckoutResult(getDb(), token, checkoutId, text) : undefined;
  if (!result) notFound();
  if (result.subscription && result.status !== 'failed') return <SubscriptionStarted result={result} subscription={result.subscription} text={text} />;
  return (
    <main lang={text.locale} className="mx-auto max-w-lg px-6 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
        <p className="text-sm font-medium text-slate-500">{result.sellerName}</p>
        <h1 className={`mt-2 text-2xl font-semibold ${result.status === 'failed' ? 'text-red-700' : ''}`}>{t(`result.${result.status}`)}</h1>
        <p className="mt-3 text-slate-700">
          {result.name} · <span data-testid="paid-total">{result.total}</span>
        </p>
        {result.card && result.status !== 'failed' && <p className="mt-1 text-sm text-slate-500">{t('result.paidWith', { card: result.card })}</p>}
        {result.failureReason && (
          <>
            <p className="mt-4 text-slate-700" data-testid="failure-reason">
              {result.failureReason}
            </p>
            <a
              href={`/pay/${encodeURIComponent(token)}`}
              className="mt-4 block rounded-md bg-slate-900 px-4 py-2.5 text-center text-sm font-semibold text-white hover:bg-slate-700"
            >
              {t('result.tryAgain')}
            </a>
          </>
        )}
        {result.email && result.status !== 'failed' && <p className="mt-4 text-sm text-slate-600">{t('result.paidBy', { email: result.email })}</p>}
        {result.status === 'processing' && !result.authenticateUrl && <p className="mt-4 text-sm text-slate-600">{t('result.bankPending')}</p>}
        {result.authenticateUrl && (
          <>
            <p className="mt-4 text-sm text-slate-600">{t('result.authenticationPending')}</p>
            <a
              href={result.authenticateUrl}
              className="mt-4 block rounded-md bg-slate-900 px-4 py-2.5 text-center text-sm font-semibold text-white hover:bg-slate-700"
            >
              {t('result.continueAuthentication')}
            </a>
          </>
        )}
        {result.continueUrl && result.status !== 'failed' && !result.authenticateUrl && (
          <RedirectSoon url={result.continueUrl} returning={t('result.returning')} continueNow={t('result.continueNow')} />
        )}
      </div>
    </main>
  );
}

function SubscriptionStarted({ result, subscription, text }: { result: HostedCheckoutResult; subscription: SubscriptionNextSteps; text: CustomerText }) {
  const { t } = text;
  const heading = result.status === 'processing' ? t('result.processing') : subscription.trialing ? t('result.trialStarted') : t('result.subscriptionStarted');
  return (
    <main lang={text.locale} className="mx-auto max-w-lg px-6 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-center text-sm font-medium text-slate-500">{result.sellerName}</p>
        <h1 className="mt-2 text-center text-2xl font-semibold">{heading}</h1>
        <p className="mt-3 text-center text-slate-700">
          {result.name} · <span data-testid="recurring-price">{subscription.recurringLabel}</span>
        </p>
        <dl className="mt-6 space-y-2 border-t border-slate-100 pt-4 text-sm" data-testid="next-steps">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">{t('result.chargedToday')}</dt>
            <dd data-testid="paid-total">{result.total}</dd>
          </div>
          {subscription.trialing ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">{t('result.trialEnds')}</dt>
              <dd>{subscription.nextChargeDate}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">{subscription.trialing ? t('result.firstPayment') : t('result.nextPayment')}</dt>
            <dd data-testid="next-charge">{t('result.amountOn', { amount: subscription.nextChargeAmount, date: subscription.nextChargeDate })}</dd>
          </div>
          {subscription.promotionCode ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">{t('result.promotionCode')}</dt>
              <dd>{subscription.promotionCode}</dd>
            </div>
          ) : null}
        </dl>
        <p className="mt-4 text-sm text-slate-600">
          {subscription.trialing ? t('result.trialNote', { date: subscription.nextChargeDate }) : t('result.renewNote', { price: subscription.recurringLabel })}{' '}
          {result.card ? t('result.renewCard', { card: result.card }) : ''}
        </p>
        {result.email && <p className="mt-2 text-sm text-slate-600">{t('result.subscribedAs', { email: result.email })}</p>}
        {result.status === 'processing' && <p className="mt-4 text-sm text-slate-600">{t('result.bankPending')}</p>}
        <a
          href={subscription.portalUrl}
          className="mt-6 block rounded-md border border-slate-300 px-4 py-2.5 text-center text-sm font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('result.manage')}
        </a>
        <p className="mt-2 text-center text-xs text-slate-500">{t('result.manageNote')}</p>
        {result.continueUrl && <RedirectSoon url={result.continueUrl} returning={t('result.returning')} continueNow={t('result.continueNow')} />}
      </div>
    </main>
  );
}
