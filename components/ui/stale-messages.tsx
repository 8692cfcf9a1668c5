'use client';

import { useEffect, useState, type ReactNode } from 'react';

/**
 * Success and error messages answer one action; once the person does something else on the
 * page they are stale. Each form announces its submission, and every other message hides.
 */
const EVENT = 'paybase:action';

export function announceAction(sourceId: string) {
  window.dispatchEvent(new CustomEvent(EVENT, { detail: sourceId }));
}

export function useOnOtherAction(ownId: string, onOther: () => void) {
  useEffect(() => {
    const listener = (event: Event) => {
      if ((event as CustomEvent<string>).detail !== ownId) onOther();
    };
    window.addEventListener(EVENT, listener);
    return () => window.removeEventListener(EVENT, listener);
  });
}

/** A message rendered by the server (e.g. after a redirect) that hides at the next action. */
export function TransientMessage({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(true);
  useOnOtherAction('', () => setVisible(false));
  return visible ? children : null;
}
