'use client';

import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { useFormState } from '@/components/ui/form-context';
import { SubmitButton } from '@/components/ui/submit-button';
import { CopyButton } from '@/components/ui/copy-button';
import { ShownOnce } from '@/components/ui/shown-once';

export interface ScopeOption {
  value: string;
  label: string;
  description?: string;
}

/** Creates a key and shows its secret this once, with a copy button, brought into view and focused. */
export function NewApiKeyForm({ action, scopes }: { action: FormActionFn; scopes: ScopeOption[] }) {
  return (
    <ActionForm
      action={action}
      className="space-y-4"
      ariaLabel="New API key"
      renderResult={(key: { id: string; name: string; secret: string }) => (
        <ShownOnce labelledBy="new-api-key-title" testId="new-api-key">
          <p id="new-api-key-title" className="font-medium text-green-900">
            Key “{key.name}” created. Copy it now: it will not be shown again.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded border border-green-200 bg-white px-2 py-1 font-mono text-sm break-all text-slate-900" data-testid="api-key-secret">
              {key.secret}
            </code>
            <CopyButton value={key.secret} />
          </div>
          <p className="mt-2 text-xs text-green-900">Keep it in your backend configuration only, never in frontend code.</p>
        </ShownOnce>
      )}
    >
      <TextField label="Name" name="name" required maxLength={100} hint="For you: where the key is used, e.g. “Production backend”." />
      <ScopePicker scopes={scopes} />
      <SubmitButton pendingText="Creating…">Create key</SubmitButton>
    </ActionForm>
  );
}

/** Scopes grouped by resource: one row per resource with its read and write boxes. */
function ScopePicker({ scopes }: { scopes: ScopeOption[] }) {
  const error = useFormState().fieldErrors?.scopes;
  const resources = [...new Set(scopes.map((scope) => scope.value.split(':')[0]!))];
  return (
    <fieldset aria-describedby={error ? 'scopes-error' : 'scopes-hint'}>
      <legend className="text-sm font-medium text-slate-800">Scopes</legend>
      <p id="scopes-hint" className="mt-0.5 text-xs text-slate-600">
        A key can do only what its scopes allow. Write includes read.
      </p>
      {error ? (
        <p id="scopes-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200">
        {resources.map((resource) => (
          <div key={resource} className="flex items-center justify-between gap-3 px-3 py-2">
            <span className="font-mono text-sm text-slate-800">{resource}</span>
            <span className="flex gap-4">
              {(['read', 'write'] as const).map((access) => {
                const option = scopes.find((scope) => scope.value === `${resource}:${access}`);
                if (!option) return <span key={access} className="w-20" aria-hidden="true" />;
                return (
                  <label key={access} className="flex w-20 items-center gap-1.5 text-sm text-slate-700" title={option.description}>
                    <input
                      type="checkbox"
                      name="scopes"
                      value={option.value}
                      aria-label={`${option.value}${option.description ? ` (${option.description})` : ''}`}
                      className="h-4 w-4 shrink-0 accent-brand-600"
                    />
                    {access}
                    {option.description?.startsWith('High risk') ? (
                      <span className="text-amber-600" aria-hidden="true">
                        ⚠
                      </span>
                    ) : null}
                  </label>
                );
              })}
            </span>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
