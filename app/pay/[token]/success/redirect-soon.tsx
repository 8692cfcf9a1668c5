'use client';

import { useEffect } from 'react';

/** Shows the confirmation for a moment, then continues to the seller's successUrl. */
export function RedirectSoon({ url, returning, continueNow, delayMs = 3000 }: { url: string; returning: string; continueNow: string; delayMs?: number }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(url), delayMs);
    return () => clearTimeout(timer);
  }, [url, delayMs]);
  return (
    <p className="mt-6 text-sm text-slate-500">
      {returning}{' '}
      <a className="text-brand-600 underline" href={url}>
        {continueNow}
      </a>
    </p>
  );
}
