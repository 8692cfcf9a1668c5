import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { loadHostedCheckoutResult } from '@/lib/checkout/hosted';
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
