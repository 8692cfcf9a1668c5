import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckout } from '@/lib/checkout/hosted';
import { SubscriptionSummary } from '@/components/checkout/subscription-summary';
import { CheckoutForm } from './checkout-form';
import { linkDesign } from './design';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Checkout', robots: { index: false } };

export default async function PayPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await loadHostedCheckout(getDb(), token);
  if (!view) notFound();
  const design = await linkDesign(token);
  return (
    <main className="mx-auto grid max-w-4xl gap-8 px-6 py-12 md:grid-cols-2">
      <section aria-labelledby="order-heading">
        <p className="text-sm font-medium text-slate-500" data-testid="seller">
          {view.sellerName}
        </p>
        <h1 id="order-heading" className="mt-1 text-2xl font-semibold tracking-tight">
          {view.name}
        </h1>
        {view.description && <p className="mt-2 text-slate-600">{view.description}</p>}
        {view.subscription ? (
          <SubscriptionSummary terms={view.subscription} withCharges={false} />
        ) : (
          <dl className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-5 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-500">Price</dt>
              <dd>{view.unitAmount}</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-500">Quantity</dt>
              <dd data-testid="quantity">{view.quantity}</dd>
            </div>
            <div className="flex justify-between border-t border-slate-100 pt-2 text-base font-semibold">
              <dt>Total</dt>
              <dd data-testid="list-total">{view.total}</dd>
            </div>
          </dl>
        )}
        <p className="mt-4 text-xs text-slate-500">Sandbox: no real money moves. Test card 4242 4242 4242 4242, any future expiry, any CVC.</p>
      </section>
      <section aria-label="Payment">
        {view.unavailableReason ? (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-900">
            <h2 className="font-semibold" data-testid="unavailable-title">{view.unavailableTitle}</h2>
            <p className="mt-1" data-testid="unavailable-reason">
              {view.unavailableReason}
            </p>
          </div>
        ) : (
          <>
            <CheckoutForm token={view.token} total={view.total} subscription={view.subscription} buttonLabel={design?.buttonLabel} />
            <p className="mt-4 text-center text-sm text-slate-600">
              Saved a card with {view.sellerName} before?{' '}
              <Link href={`/member/pay/${view.token}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                Pay with your Paybase wallet
              </Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}
