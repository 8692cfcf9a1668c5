'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * What the order summary and the form of a hosted checkout share: the total Pay will charge
 * (the form updates it as a promotion code is applied, a billing country or a quantity chosen,
 * so the summary never shows another total) and the quantity the customer chose in the summary
 * (a link with an adjustable quantity), which the form quotes and pays.
 */
const CheckoutState = createContext<{
  total: string | null;
  setTotal: (total: string) => void;
  quantity: number | null;
  setQuantity: (quantity: number) => void;
}>({ total: null, setTotal: () => {}, quantity: null, setQuantity: () => {} });

export function QuotedTotalProvider({ children }: { children: ReactNode }) {
  const [total, setTotal] = useState<string | null>(null);
  const [quantity, setQuantity] = useState<number | null>(null);
  return <CheckoutState.Provider value={{ total, setTotal, quantity, setQuantity }}>{children}</CheckoutState.Provider>;
}

/** The summary's total: the form's latest quote, else the page's own (`initial`). */
export function LiveTotal({ initial }: { initial: string }) {
  return <>{useContext(CheckoutState).total ?? initial}</>;
}

export function useSetQuotedTotal() {
  return useContext(CheckoutState).setTotal;
}

/** The quantity the customer chose, or null while it is the link's own. */
export function useChosenQuantity() {
  return useContext(CheckoutState).quantity;
}

/** The summary's quantity field of a link whose quantity the customer may adjust, between `minimum` and `maximum`. */
export function QuantityField({ label, initial, minimum, maximum }: { label: string; initial: number; minimum: number; maximum: number }) {
  const { quantity, setQuantity } = useContext(CheckoutState);
  const [typed, setTyped] = useState(String(initial));
  const commit = (value: number) => {
    const bounded = Math.min(maximum, Math.max(minimum, Number.isFinite(value) ? Math.round(value) : initial));
    setTyped(String(bounded));
    if (bounded !== (quantity ?? initial)) setQuantity(bounded);
  };
  const current = quantity ?? initial;
  const stepClass = 'h-8 w-8 rounded-md border border-slate-300 text-base font-semibold hover:bg-slate-50 disabled:opacity-40';
  return (
    <div className="flex items-center gap-1">
      <button type="button" className={stepClass} aria-label={`${label} −1`} disabled={current <= minimum} onClick={() => commit(current - 1)}>
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        aria-label={label}
        data-testid="quantity-input"
        min={minimum}
        max={maximum}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={() => commit(Number(typed))}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(Number(typed));
          }
        }}
        className="h-8 w-16 rounded-md border border-slate-300 px-2 text-center"
      />
      <button type="button" className={stepClass} aria-label={`${label} +1`} disabled={current >= maximum} onClick={() => commit(current + 1)}>
        +
      </button>
    </div>
  );
}
