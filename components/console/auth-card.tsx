import Link from 'next/link';
import type { ReactNode } from 'react';

/** The centred card of sign-in and sign-up pages. */
/** `lang`: the page's language when it is not English (the customer-facing pages, lib/i18n). */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  lang,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  lang?: string;
}) {
  return (
    <main id="main" lang={lang} className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <Link href="/" className="mb-6 block text-center text-2xl font-bold tracking-tight text-brand-700">
          Paybase
        </Link>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-4 text-center text-sm text-slate-600">{footer}</div> : null}
      </div>
    </main>
  );
}
