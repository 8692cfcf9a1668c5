'use client';

import { useEffect } from 'react';
import { useRouter } from 'next/navigation';

/**
 * Refreshes the page's server data every `everyMs` for `forMs` (e.g. after a retry is queued,
 * until its attempt shows). Renders nothing; without JavaScript the page is simply reloaded by hand.
 */
export function AutoRefresh({ everyMs = 1500, forMs = 20_000 }: { everyMs?: number; forMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > forMs) clearInterval(timer);
      else router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs, forMs]);
  return null;
}
