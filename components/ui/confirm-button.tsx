'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { SubmitButton } from './submit-button';

/**
 * A destructive submit that asks first: the first click shows the question in words with the
 * real submit and a cancel, so nothing happens by a single stray click. Focus moves to the
 * real submit and back to the first button on cancel (Escape cancels too). The second step
 * sends `confirmed=yes`, which actions that must not run unconfirmed check on the server.
 */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
}: {
  children: ReactNode;
  question: string;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: ButtonVariant;
}) {
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  const group = useRef<HTMLFieldSetElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) group.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    else if (wasAsking.current) trigger.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <Button ref={trigger} variant="secondary" size="sm" onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <fieldset
      ref={group}
      aria-labelledby={questionId}
      className="inline-flex min-w-0 flex-wrap items-center gap-2"
      onKeyDown={(event) => event.key === 'Escape' && setAsking(false)}
    >
      <span id={questionId} className="text-sm text-slate-700">
        {question}
      </span>
      <input type="hidden" name="confirmed" value="yes" />
      <SubmitButton variant={variant} size="sm">
        {confirmLabel}
      </SubmitButton>
      <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
        {cancelLabel}
      </Button>
    </fieldset>
  );
}
