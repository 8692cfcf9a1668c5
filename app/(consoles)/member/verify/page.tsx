import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { verifyLinkAction } from '../actions';

// The link's token must not leak to other sites through the Referer header.
export async function generateMetadata(): Promise<Metadata> {
  return { title: customerText(await pageLocale()).t('wallet.confirmTitle'), referrer: 'no-referrer' };
}

/**
 * The page a sign-in link opens. Signing in takes a click (a POST), because mail scanners open
 * links on their own and would otherwise spend the single-use token.
 */
export default async function MemberVerifyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const token = query.token;
  const next = safeWalletReturnPath(query.next);
  const { t, locale } = customerText(await pageLocale());
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard lang={locale} title={t('wallet.incomplete')}>
        <p className="text-sm text-slate-700">
          {t.rich('wallet.openAgain', {
            link: (chunks) => (
              <Link href="/member/sign-in" className="font-medium text-brand-700 underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard lang={locale} title={t('wallet.signInTitle')} subtitle={t('wallet.confirmSubtitle')}>
      <ActionForm action={verifyLinkAction} className="space-y-4" ariaLabel={t('wallet.confirmForm')}>
        <input type="hidden" name="locale" value={locale} />
        <input type="hidden" name="loginToken" value={token} />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <SubmitButton pendingText={t('wallet.signingIn')}>{t('wallet.signInButton')}</SubmitButton>
      </ActionForm>
      <p className="mt-4 text-sm text-slate-600">
        {t.rich('wallet.expiredPrompt', {
          link: (chunks) => (
            <Link href="/member/sign-in" className="font-medium text-brand-700 underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
    </AuthCard>
  );
}
