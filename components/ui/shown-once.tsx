'use client';

import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A secret shown this one time (a new API key, a webhook signing secret): when it appears it is
 * scrolled into view and takes the focus, so it is seen and read out even when the form that
 * made it sits low on the page. `labelledBy` names it for screen readers.
 */
export function ShownOnce({ children, labelledBy, testId }: { children: ReactNode; labelledBy: string; testId?: string }) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'center' });
    box.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section
      ref={box}
      tabIndex={-1}
      aria-labelledby={labelledBy}
      data-testid={testId}
      className="mt-4 rounded-md border border-green-300 bg-green-50 p-4 focus:outline-2 focus:outline-offset-2 focus:outline-green-700"
    >
      {children}
    </section>
  );
}
