import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { findSandboxAuthentication } from '@/lib/payments/processor/sandbox-authentication';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { RedirectSoon } from '@/app/pay/[token]/success/redirect-soon';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: customerText(await pageLocale()).t('sandbox.title'), robots: { index: false } };
}

/**
 * The sandbox's card authentication page (3-D Secure), where a `requires_action` charge sends
 * the customer: two buttons, as on Stripe's test page. Each posts to ./settle, which settles the
 * sandbox's charge and sends the customer back to the return URL stored with it.
 */
export default async function SandboxAuthenticationPage({
  params,
  searchParams,
}: {
  params: Promise<{ actionId: string }>;
  searchParams: Promise<{ ended?: string }>;
}) {
  const { actionId } = await params;
  const authentication = await findSandboxAuthentication(actionId);
  if (!authentication) notFound();
  const text = customerText(await pageLocale());
  const { t } = text;
  const waiting = authentication.status === 'requires_action';
  // Back here after a click whose return URL is on another site (the form may only post to this one).
  const justEnded = !waiting && Boolean((await searchParams).ended);
  const returnUrl = justEnded ? authentication.returnUrl : null;
  return (
    <main lang={text.locale} className="mx-auto max-w-md px-6 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-center text-xs font-medium uppercase tracking-wide text-amber-700">{t('sandbox.badge')}</p>
        <h1 className="mt-2 text-center text-2xl font-semibold">{t('sandbox.title')}</h1>
        <p className="mt-3 text-center text-slate-700">
          {t('sandbox.amount')}: <span data-testid="authentication-amount">{text.money(authentication.amount, authentication.currency)}</span>
        </p>
        {waiting ? (
          <>
            <p className="mt-4 text-sm text-slate-600">{t('sandbox.intro')}</p>
            <div className="mt-6 grid gap-3">
              <SettleButton actionId={actionId} result="complete" label={t('sandbox.complete')} primary />
              <SettleButton actionId={actionId} result="fail" label={t('sandbox.fail')} />
            </div>
          </>
        ) : (
          <>
            <p role="status" className={`mt-6 text-center font-semibold ${authentication.status === 'failed' ? 'text-red-700' : 'text-green-700'}`}>
              {t(authentication.status === 'failed' ? 'sandbox.failed' : 'sandbox.succeeded')}
            </p>
            {!justEnded && <p className="mt-2 text-center text-sm text-slate-500">{t('sandbox.ended')}</p>}
            {returnUrl ? (
              <RedirectSoon url={returnUrl} returning={t('result.returning')} continueNow={t('result.continueNow')} delayMs={0} />
            ) : (
              <p className="mt-2 text-center text-sm text-slate-500">{t('sandbox.close')}</p>
            )}
          </>
        )}
      </div>
    </main>
  );
}

function SettleButton({ actionId, result, label, primary = false }: { actionId: string; result: 'complete' | 'fail'; label: string; primary?: boolean }) {
  return (
    <form method="post" action={`/sandbox/authenticate/${encodeURIComponent(actionId)}/settle`}>
      <input type="hidden" name="result" value={result} />
      <button
        type="submit"
        className={
          primary
            ? 'w-full rounded-md bg-slate-900 px-4 py-2.5 text-sm font-semibold text-white hover:bg-slate-700'
            : 'w-full rounded-md border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-900 hover:bg-slate-50'
        }
      >
        {label}
      </button>
    </form>
  );
}
