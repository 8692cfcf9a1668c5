'use client';

/**
 * A page that failed to render (the server logged why). Replaces Next.js's built-in error page,
 * whose inline `<style>` carries no CSP nonce (lib/http/security-headers.ts).
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-3 text-slate-600">
        This page could not be shown. Try again in a moment.
        {error.digest ? ` Reference: ${error.digest}.` : ''}
      </p>
      <button type="button" onClick={reset} className="mt-6 rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
        Try again
      </button>
    </main>
  );
}
