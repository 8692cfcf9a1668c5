'use client';

import { useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { SubmitButton } from './submit-button';

/**
 * A destructive submit that asks first: the first click shows the question with the real
 * submit and a cancel, so nothing happens by a single stray click.
 */
export function ConfirmButton({ children, question, confirmLabel, variant = 'danger' }: { children: ReactNode; question: string; confirmLabel: string; variant?: ButtonVariant }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <span role="group" aria-label={question} className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-700">{question}</span>
      <SubmitButton variant={variant} size="sm">
        {confirmLabel}
      </SubmitButton>
      <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}
