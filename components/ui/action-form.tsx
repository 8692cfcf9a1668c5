'use client';

import { useActionState, useEffect, useRef, useTransition, type ReactNode } from 'react';
import type { FormState } from '@/lib/web/form-state';
import { FormStateContext } from './form-context';
import { Alert } from './alert';

export type FormActionFn = (state: FormState, form: FormData) => Promise<FormState>;

/**
 * A form posting to a server action. The action's answer (an error in words, field messages or
 * a result) is shown in place, what was typed stays after an error, and the form clears after a
 * success; `renderResult` shows a successful result (e.g. a new key's secret). Without
 * JavaScript the form still posts to the action.
 */
export function ActionForm({
  action,
  children,
  className = '',
  renderResult,
  ariaLabel,
}: {
  action: FormActionFn;
  children: ReactNode;
  className?: string;
  renderResult?: (result: any) => ReactNode;
  ariaLabel?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [, startTransition] = useTransition();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.result !== undefined || state.notice) formRef.current?.reset();
  }, [state]);
  return (
    <FormStateContext.Provider value={{ ...state, pending }}>
      <form
        ref={formRef}
        action={formAction}
        aria-label={ariaLabel}
        className={className}
        onSubmit={(event) => {
          // Submitting through a transition (not the form's own action) keeps the typed values on error.
          event.preventDefault();
          const submitter = (event.nativeEvent as SubmitEvent).submitter;
          const data = new FormData(event.currentTarget, submitter);
          startTransition(() => formAction(data));
        }}
      >
        {state.error ? <Alert tone="error">{state.error}</Alert> : null}
        {state.notice ? <Alert tone="success">{state.notice}</Alert> : null}
        {children}
      </form>
      {state.result !== undefined && renderResult ? renderResult(state.result) : null}
    </FormStateContext.Provider>
  );
}
