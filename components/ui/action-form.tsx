'use client';

import { useActionState, useEffect, useId, useRef, useState, useTransition, type ReactNode } from 'react';
import type { FormState } from '@/lib/server/web/form-state';
import { FormStateContext } from './form-context';
import { Alert } from './alert';
import { announceAction, useOnOtherAction } from './stale-messages';

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
  prepare,
}: {
  action: FormActionFn;
  children: ReactNode;
  className?: string;
  // biome-ignore lint/suspicious/noExplicitAny: each caller states what its own action answers; the action's type does not carry it.
  renderResult?: (result: any) => ReactNode;
  ariaLabel?: string;
  /**
   * Runs in the browser first and may add to what is posted (the PaymentMethod Stripe.js makes of
   * a card); words it answers stop the submission and are shown as an action's error is.
   */
  prepare?: (form: FormData) => Promise<string | null>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [submitting, startTransition] = useTransition();
  const [refusal, setRefusal] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const formId = useId();
  // A message answers the last action only: another form's action (or this one's next) hides it.
  const [dismissed, setDismissed] = useState<FormState | null>(null);
  useOnOtherAction(formId, () => setDismissed(state));
  useEffect(() => {
    if (state.result !== undefined || state.notice) formRef.current?.reset();
    // After a failed action focus moves to the first field refused (its message is its description),
    // else to the message saying why (a decline, a refusal); the message is an alert either way.
    if (state.error) (formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? errorRef.current)?.focus();
  }, [state]);
  useEffect(() => {
    if (refusal) errorRef.current?.focus();
  }, [refusal]);
  const shown: FormState = refusal ? { error: refusal } : dismissed === state ? {} : state;
  return (
    <FormStateContext.Provider value={{ ...shown, pending: pending || submitting }}>
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
          setDismissed(state);
          setRefusal(null);
          announceAction(formId);
          if (!prepare) {
            startTransition(() => formAction(data));
            return;
          }
          startTransition(async () => {
            const refused = await prepare(data);
            if (refused !== null) setRefusal(refused);
            // An action dispatched after an await must be in a transition of its own.
            else startTransition(() => formAction(data));
          });
        }}
      >
        {/* Full width in grid and flex forms alike, so a message never squeezes the fields. */}
        {shown.error ? (
          <div
            ref={errorRef}
            tabIndex={-1}
            className="col-span-full basis-full outline-none focus-visible:ring-2 focus-visible:ring-red-400"
            data-testid="form-error"
          >
            <Alert tone="error">{shown.error}</Alert>
          </div>
        ) : null}
        {shown.notice ? (
          <div className="col-span-full basis-full">
            <Alert tone="success">{shown.notice}</Alert>
          </div>
        ) : null}
        {children}
      </form>
      {shown.result !== undefined && renderResult ? renderResult(shown.result) : null}
    </FormStateContext.Provider>
  );
}
