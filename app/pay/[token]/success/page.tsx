import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckoutResult, type HostedCheckoutResult, type SubscriptionNextSteps } from '@/lib/checkout/hosted-result';
import { RedirectSoon } from './redirect-soon';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Payment', robots: { index: false } };

const HEADINGS = {
  paid: 'Payment successful',
  processing: 'Payment processing',
  failed: 'Payment failed',
} as const;

export default async function SuccessPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ checkoutId?: string }>;
}) {
  const { token } = await params;
  const { checkoutId } = await searchParams;
  const result = checkoutId ? await loadHostedCheckoutResult(getDb(), token, checkoutId) : undefined;
  if (!result) notFound();
  if (result.subscription && result.status !== 'failed') return <SubscriptionStarted result={result} subscription={result.subscription} />;
  return (
    <main className="mx-auto max-w-lg px-6 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
        <p className="text-sm font-medium text-slate-500">{result.sellerName}</p>
        <h1 className={`mt-2 text-2xl font-semibold ${result.status === 'failed' ? 'text-red-700' : ''}`}>{HEADINGS[result.status]}</h1>
        <p className="mt-3 text-slate-700">
          {result.name} · <span data-testid="paid-total">{result.total}</span>
        </p>
        {result.card && <p className="mt-1 text-sm text-slate-500">Paid with {result.card}</p>}
        {result.email && <p className="mt-4 text-sm text-slate-600">Paid by {result.email}</p>}
        {result.status === 'processing' && (
          <p className="mt-4 text-sm text-slate-600">Your bank has not confirmed the payment yet. The seller will be told as soon as it does.</p>
        )}
        {result.continueUrl && result.status !== 'failed' && <RedirectSoon url={result.continueUrl} />}
      </div>
    </main>
  );
}

function SubscriptionStarted({ result, subscription }: { result: HostedCheckoutResult; subscription: SubscriptionNextSteps }) {
  const heading = result.status === 'processing' ? 'Payment processing' : subscription.trialing ? 'Your free trial has started' : 'Subscription started';
  return (
    <main className="mx-auto max-w-lg px-6 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-center text-sm font-medium text-slate-500">{result.sellerName}</p>
        <h1 className="mt-2 text-center text-2xl font-semibold">{heading}</h1>
        <p className="mt-3 text-center text-slate-700">
          {result.name} · <span data-testid="recurring-price">{subscription.recurringLabel}</span>
        </p>
        <dl className="mt-6 space-y-2 border-t border-slate-100 pt-4 text-sm" data-testid="next-steps">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">Charged today</dt>
            <dd data-testid="paid-total">{result.total}</dd>
          </div>
          {subscription.trialing ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Trial ends</dt>
              <dd>{subscription.nextChargeDate}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500">{subscription.trialing ? 'First payment' : 'Next payment'}</dt>
            <dd data-testid="next-charge">
              {subscription.nextChargeAmount} on {subscription.nextChargeDate}
            </dd>
          </div>
          {subscription.promotionCode ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Promotion code</dt>
              <dd>{subscription.promotionCode}</dd>
            </div>
          ) : null}
        </dl>
        <p className="mt-4 text-sm text-slate-600">
          {subscription.trialing
            ? `Nothing is charged until your trial ends. Cancel before ${subscription.nextChargeDate} and you pay nothing.`
            : `It renews automatically at ${subscription.recurringLabel} until you cancel.`}{' '}
          {result.card ? `Renewals are charged to ${result.card}.` : ''}
        </p>
        {result.email && <p className="mt-2 text-sm text-slate-600">Subscribed as {result.email}.</p>}
        {result.status === 'processing' && (
          <p className="mt-4 text-sm text-slate-600">Your bank has not confirmed the payment yet. The seller will be told as soon as it does.</p>
        )}
        <a
          href={subscription.portalUrl}
          className="mt-6 block rounded-md border border-slate-300 px-4 py-2.5 text-center text-sm font-semibold text-slate-900 hover:bg-slate-50"
        >
          Manage your subscription
        </a>
        <p className="mt-2 text-center text-xs text-slate-500">Cancel, change plan or update your card in the customer portal (we email you a sign-in link).</p>
        {result.continueUrl && <RedirectSoon url={result.continueUrl} />}
      </div>
    </main>
  );
}
