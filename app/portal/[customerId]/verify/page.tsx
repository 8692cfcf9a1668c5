import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/console/auth-card';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { portalDesign } from '../design';
import { verifyPortalAction } from '../actions';

// The link's token must not leak to other sites through the Referer header.
export async function generateMetadata({ params }: { params: Promise<{ customerId: string }> }): Promise<Metadata> {
  const design = await portalDesign((await params).customerId);
  return { title: customerText(await pageLocale(design?.defaultLocale)).t('portal.verify.title'), referrer: 'no-referrer' };
}

/** The page a portal link opens: the customer types their own email to finish (mail scanners cannot). */
export default async function PortalVerifyPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { customerId } = await params;
  const token = (await searchParams).token;
  const { t, locale } = customerText(await pageLocale((await portalDesign(customerId))?.defaultLocale));
  if (typeof token !== 'string' || !token) {
    return (
      <AuthCard lang={locale} title={t('portal.verify.incomplete')}>
        <p className="text-sm text-slate-700">
          {t.rich('portal.verify.openAgain', {
            link: (chunks) => (
              <Link href={`/portal/${customerId}`} className="font-medium text-brand-700 underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard lang={locale} title={t('portal.verify.title')} subtitle={t('portal.verify.subtitle')}>
      <ActionForm action={verifyPortalAction} className="space-y-4" ariaLabel={t('portal.verify.form')}>
        <input type="hidden" name="locale" value={locale} />
        <input type="hidden" name="customerId" value={customerId} />
        <input type="hidden" name="token" value={token} />
        <TextField label={t('portal.verify.yourEmail')} name="email" type="email" autoComplete="email" required />
        <SubmitButton pendingText={t('portal.verify.checking')}>{t('portal.verify.continue')}</SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
