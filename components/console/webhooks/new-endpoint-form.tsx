'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { useFormState } from '@/components/ui/form-context';
import { SubmitButton } from '@/components/ui/submit-button';
import { SecretReveal } from './secret-reveal';

/** Registers an endpoint and shows its signing secret this once. */
export function NewEndpointForm({ action, eventTypes }: { action: FormActionFn; eventTypes: readonly string[] }) {
  return (
    <ActionForm
      action={action}
      className="space-y-4"
      ariaLabel="New webhook endpoint"
      renderResult={(endpoint: { id: string; url: string; signingSecret: string }) => (
        <SecretReveal
          title={
            <>
              Endpoint created for <span className="break-all">{endpoint.url}</span>.
            </>
          }
          secret={endpoint.signingSecret}
        >
          Your receiver checks each delivery&rsquo;s <code>X-Service-Signature</code> with it.{' '}
          <Link href={`/merchant/webhooks/${endpoint.id}`} prefetch={false} className="font-medium underline">
            Open the endpoint
          </Link>
        </SecretReveal>
      )}
    >
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        maxLength={2048}
        placeholder="https://shop.example/webhooks/paybase"
        hint="A public https address of your backend. Redirects are not followed."
      />
      <TextField label="Description" name="description" maxLength={500} hint="Optional, for you: what this receiver does." />
      <EventPicker eventTypes={eventTypes} />
      <SubmitButton pendingText="Creating…">Create endpoint</SubmitButton>
    </ActionForm>
  );
}

/** Event types grouped by resource; "All events" (`*`) covers every type, including future ones. */
export function EventPicker({ eventTypes, selected = [] }: { eventTypes: readonly string[]; selected?: readonly string[] }) {
  const error = useFormState().fieldErrors?.events;
  const [all, setAll] = useState(selected.includes('*'));
  const groups = new Map<string, string[]>();
  for (const type of eventTypes) {
    const resource = type.split('.')[0]!;
    groups.set(resource, [...(groups.get(resource) ?? []), type]);
  }
  return (
    <fieldset aria-describedby={error ? 'events-error' : 'events-hint'}>
      <legend className="text-sm font-medium text-slate-800">Events to send</legend>
      <p id="events-hint" className="mt-0.5 text-xs text-slate-600">
        Only the chosen event types are delivered to this endpoint.
      </p>
      {error ? (
        <p id="events-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <label className="mt-2 flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium text-slate-800">
        <input type="checkbox" name="events" value="*" checked={all} onChange={(event) => setAll(event.target.checked)} className="h-4 w-4 accent-brand-600" />
        All events <span className="font-mono text-xs font-normal text-slate-600">*</span>
        <span className="text-xs font-normal text-slate-600">(also types added later)</span>
      </label>
      <fieldset
        aria-label="Event types"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable, so the list scrolls from the keyboard even while its boxes are disabled (axe `scrollable-region-focusable`).
        tabIndex={0}
        className="mt-2 max-h-72 min-w-0 space-y-2 overflow-y-auto rounded-md border border-slate-200 p-3"
        aria-disabled={all}
      >
        {[...groups].map(([resource, types]) => (
          <div key={resource}>
            <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{resource.replaceAll('_', ' ')}</p>
            <div className="mt-1 grid gap-x-3 gap-y-1 sm:grid-cols-2">
              {types.map((type) => (
                <label key={type} className={`flex min-w-0 items-center gap-2 text-sm ${all ? 'text-slate-400' : 'text-slate-800'}`}>
                  {/* With "All events" on, the single boxes are shown ticked and not sent. */}
                  <input
                    key={String(all)}
                    type="checkbox"
                    name="events"
                    value={type}
                    disabled={all}
                    defaultChecked={all || selected.includes(type)}
                    className="h-4 w-4 accent-brand-600"
                  />
                  <span className="min-w-0 font-mono text-xs break-all">{type}</span>
                </label>
              ))}
            </div>
          </div>
        ))}
      </fieldset>
    </fieldset>
  );
}
