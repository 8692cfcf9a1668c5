import type { Metadata } from 'next';
import Link from 'next/link';
import { DesignFrame } from '@/components/checkout/design-frame';
import { customerText } from '@/lib/i18n/customer-text';
import { pageAudience } from './document-language';

export const metadata: Metadata = { robots: { index: false } };

/**
 * Every 404 (an unknown address, or a page's notFound()), with status 404. Next.js's built-in one
 * writes an inline `<style>` without the request's CSP nonce, which the policy refuses
 * (lib/http/security-headers.ts). Under a customer page's address (/pay, /portal, /invoice,
 * /credit-note, /member) it speaks the visitor's language and wears the seller's design when the
 * address still names one (a portal's customer, a wallet checkout's link).
 */
export default async function NotFound() {
  const audience = await pageAudience();
  const { t } = customerText(audience.locale);
  return (
    <DesignFrame design={audience.design} locale={audience.locale}>
      <title>{t('notFound.title')}</title>
      <main id="main" lang={audience.locale} className="mx-auto max-w-xl px-6 py-24 text-center">
        <p className="text-sm font-semibold text-slate-600">404</p>
        <h1 className="mt-2 text-2xl font-bold">{t('notFound.title')}</h1>
        <p className="mt-3 text-slate-600">{audience.customer ? t('notFound.body') : 'The address is wrong, or what it pointed to no longer exists.'}</p>
        {audience.customer ? null : (
          <Link href="/" className="mt-6 inline-block font-medium text-brand-700 underline">
            Paybase home
          </Link>
        )}
      </main>
    </DesignFrame>
  );
}
