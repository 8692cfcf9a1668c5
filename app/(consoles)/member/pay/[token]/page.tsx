import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { NextIntlClientProvider } from 'next-intl';
import { customerText } from '@/lib/i18n/customer-text';
import { clientMessages } from '@/lib/i18n/messages';
import { pageLocale } from '@/lib/server/web/page-locale';
import { getDb } from '@/lib/db/client';
import { findMemberById } from '@/lib/members/members';
import { loadHostedCheckout } from '@/lib/checkout/hosted';
import { walletCardsForSeller } from '@/lib/checkout/wallet';
import { findPublicPaymentLink } from '@/lib/payment-links/payment-links';
import { requireSession } from '@/lib/server/web/session';
import { OrderSummary, UnavailableNotice } from '@/components/checkout/order-summary';
import { WalletPayForm } from './wallet-form';
import { DesignFrame } from '@/components/checkout/design-frame';
import { QuotedTotalProvider } from '@/components/checkout/quoted-total';
import { linkDesign } from '@/app/pay/[token]/design';

export const dynamic = 'force-dynamic';
export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const design = await linkDesign((await params).token);
  return { title: customerText(await pageLocale(design?.defaultLocale)).t('wallet.payTitle'), robots: { index: false } };
}

/**
 * The hosted checkout for a signed-in wallet member. It lives under /member because the wallet's
 * session cookies are scoped to that path (docs/decisions.md); /pay/{token} links here.
 */
export default async function WalletPayPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  // Signing in first brings the member back here (lib/auth/return-path.ts).
  const principal = await requireSession('member', { returnTo: `/member/pay/${token}` });
  const db = getDb();
  // The wallet's checkout wears the link's design (or the seller's default) and speaks its language, as /pay/{token} does.
  const design = await linkDesign(token);
  const locale = await pageLocale(design?.defaultLocale);
  const text = customerText(locale);
  const { t } = text;
  const member = await findMemberById(db, principal.subjectId);
  if (!member) redirect('/member/sign-in');
  const [view, found] = await Promise.all([loadHostedCheckout(db, token, text), findPublicPaymentLink(db, token)]);
  if (!view || !found) notFound();
  const { cards, elsewhere } = await walletCardsForSeller(db, found.link.merchantId, member.email);

  return (
    <DesignFrame design={design} locale={locale}>
      <QuotedTotalProvider>
        <main lang={locale} className="mx-auto grid max-w-4xl gap-8 px-6 py-12 md:grid-cols-2">
          <OrderSummary view={view} text={text} chooseQuantity={!view.unavailableReason && cards.length > 0}>
            <p className="mt-4 text-sm text-slate-600">{t.rich('wallet.signedInAs', { email: member.email, strong: (chunks) => <strong>{chunks}</strong> })}</p>
          </OrderSummary>
          <section aria-label={t('checkout.paymentSection')} className="space-y-4">
            {view.unavailableReason ? (
              <UnavailableNotice title={view.unavailableTitle} reason={view.unavailableReason} />
            ) : cards.length ? (
              <NextIntlClientProvider locale={locale} messages={clientMessages(locale, 'wallet', 'checkout', 'common')} timeZone="UTC">
                <WalletPayForm
                  token={token}
                  locale={locale}
                  total={view.total}
                  payVerb={design?.buttonLabel ?? 'Pay'}
                  subscriptionLabel={view.subscription?.buttonLabel ?? null}
                  cards={cards}
                />
              </NextIntlClientProvider>
            ) : (
              <div className="rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-700 shadow-sm" data-testid="no-wallet-cards">
                <h2 className="text-lg font-semibold text-slate-900">{t('wallet.noCardsTitle', { seller: view.sellerName })}</h2>
                <p className="mt-2">{t('wallet.noCards', { seller: view.sellerName, email: member.email })}</p>
              </div>
            )}
            {elsewhere ? (
              <p className="text-sm text-slate-600" data-testid="elsewhere-note">
                {t('wallet.elsewhere', { count: elsewhere })}
              </p>
            ) : null}
            <p className="text-sm">
              <Link href={`/pay/${token}`} className="text-brand-700 hover:underline">
                {t('wallet.newCardInstead')}
              </Link>
            </p>
          </section>
        </main>
      </QuotedTotalProvider>
    </DesignFrame>
  );
}
