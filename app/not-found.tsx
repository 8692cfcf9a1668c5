import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found', robots: { index: false } };

/**
 * Every 404 (an unknown address, or a page's notFound()). Next.js's built-in one writes an inline
 * `<style>` without the request's CSP nonce, which the policy refuses (lib/http/security-headers.ts).
 */
export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-xl px-6 py-24 text-center">
      <p className="text-sm font-semibold text-slate-600">404</p>
      <h1 className="mt-2 text-2xl font-bold">Page not found</h1>
      <p className="mt-3 text-slate-600">The address is wrong, or what it pointed to no longer exists.</p>
      <Link href="/" className="mt-6 inline-block font-medium text-brand-700 underline">
        Paybase home
      </Link>
    </main>
  );
}
