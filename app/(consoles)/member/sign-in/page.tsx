import type { Metadata } from 'next';
import Link from 'next/link';
import { config } from '@/lib/config';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { safeWalletReturnPath } from '@/lib/auth/return-path';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { requestLinkAction } from '../actions';

export async function generateMetadata(): Promise<Metadata> {
  return { title: customerText(await pageLocale()).t('wallet.signInForm') };
}
// Whether to point at the dev mailbox is decided by APP_ENV at run time, not build time.
export const dynamic = 'force-dynamic';

export default async function MemberSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeWalletReturnPath((await searchParams).next);
  const { t, locale } = customerText(await pageLocale());
  return (
    <AuthCard
      lang={locale}
      title={t('wallet.signInTitle')}
      subtitle={next ? t('wallet.signInBack') : t('wallet.signInNoPassword')}
      footer={
        config.isProduction
          ? undefined
          : t.rich('wallet.devMailbox', {
              link: (chunks) => (
                <Link className="font-medium text-brand-700 underline" href="/dev/mailbox">
                  {chunks}
                </Link>
              ),
            })
      }
    >
      <ActionForm action={requestLinkAction} className="space-y-4" ariaLabel={t('wallet.signInForm')}>
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <input type="hidden" name="locale" value={locale} />
        <TextField label={t('wallet.email')} name="email" type="email" autoComplete="email" required />
        <SubmitButton pendingText={t('wallet.sending')}>{t('wallet.requestLink')}</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
