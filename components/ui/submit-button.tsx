'use client';

import { useFormStatus } from 'react-dom';
import type { ReactNode } from 'react';
import { buttonClass, type ButtonVariant } from './button';
import { useFormState } from './form-context';

export function SubmitButton({
  children,
  pendingText,
  variant = 'primary',
  size = 'md',
  name,
  value,
}: {
  children: ReactNode;
  pendingText?: string;
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  name?: string;
  value?: string;
}) {
  const status = useFormStatus();
  const formState = useFormState();
  const pending = status.pending || Boolean(formState.pending);
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClass(variant, size)} name={name} value={value}>
      {pending ? (pendingText ?? 'Working…') : children}
    </button>
  );
}
