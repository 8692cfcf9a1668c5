'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * The total the hosted checkout will charge, shared by the order summary and the form: the form
 * updates it as a promotion code is applied or a billing country chosen, so the summary never
 * shows a total other than the one Pay charges.
 */
const QuotedTotal = createContext<{ total: string | null; setTotal: (total: string) => void }>({ total: null, setTotal: () => {} });

export function QuotedTotalProvider({ children }: { children: ReactNode }) {
  const [total, setTotal] = useState<string | null>(null);
  return <QuotedTotal.Provider value={{ total, setTotal }}>{children}</QuotedTotal.Provider>;
}

/** The summary's total: the form's latest quote, else the page's own (`initial`). */
export function LiveTotal({ initial }: { initial: string }) {
  return <>{useContext(QuotedTotal).total ?? initial}</>;
}

export function useSetQuotedTotal() {
  return useContext(QuotedTotal).setTotal;
}
