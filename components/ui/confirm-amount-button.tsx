'use client';

import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '@/lib/money/format';
import { parseMoney } from '@/lib/money/parse';
import { Button } from './button';
import { SubmitButton } from './submit-button';

/**
 * A money-moving submit that states the amount in words before it acts: "Review" reads the
 * form's amount field, and the second step asks "Refund $12.50 …?" with the real submit, which
 * carries the confirmed amount (`confirmedAmount`, minor units) for the server to check against
 * the field. Focus moves to the question and back, so keyboard and screen-reader users follow.
 */
export function ConfirmAmountButton({
  currency,
  verb,
  consequence,
  amountField = 'amount',
}: {
  currency: string;
  /** The action's verb, e.g. "Refund": the buttons read "Review refund" and "Refund $12.50". */
  verb: string;
  /** What happens, said after the amount: "to the customer. This cannot be undone." */
  consequence: string;
  amountField?: string;
}) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const review = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming !== null) group.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    else if (wasConfirming.current) review.current?.focus();
    wasConfirming.current = confirming !== null;
  }, [confirming]);

  const amountInput = () => group.current?.closest('form')?.elements.namedItem(amountField) as HTMLInputElement | null;

  // The amount cannot change under a question already asked; a form reset (after success) starts over.
  useEffect(() => {
    const input = amountInput();
    if (input) input.readOnly = confirming !== null;
    const form = group.current?.closest('form');
    const startOver = () => setConfirming(null);
    form?.addEventListener('reset', startOver);
    return () => form?.removeEventListener('reset', startOver);
  });

  function start() {
    const input = amountInput();
    const minor = input ? parseMoney(input.value, currency) : undefined;
    if (!minor) {
      setProblem(`Enter the amount in ${currency} first.`);
      input?.focus();
      return;
    }
    setProblem(null);
    setConfirming(minor);
  }

  if (confirming === null) {
    return (
      <div ref={group} className="space-y-2">
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <Button ref={review} variant="danger" onClick={start}>
          Review {verb.toLowerCase()}
        </Button>
      </div>
    );
  }
  const amount = formatMoney(confirming, currency);
  return (
    <div ref={group}>
      <fieldset
        aria-labelledby="confirm-amount-question"
        className="min-w-0 space-y-3 rounded-md border border-red-200 bg-red-50 p-3"
        onKeyDown={(event) => event.key === 'Escape' && setConfirming(null)}
      >
        <p id="confirm-amount-question" className="text-sm text-red-900" data-testid="confirm-amount-question">
          {verb} <strong>{amount}</strong> {consequence}
        </p>
        <input type="hidden" name="confirmedAmount" value={confirming} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton variant="danger" pendingText="Working…">
            {verb} {amount}
          </SubmitButton>
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            Change amount
          </Button>
        </div>
      </fieldset>
    </div>
  );
}
