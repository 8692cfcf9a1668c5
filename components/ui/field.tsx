'use client';

import { useId, type ComponentProps, type ReactNode } from 'react';
import { useFormState } from './form-context';

const CONTROL =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-500';

function useFieldError(name: string | undefined) {
  const state = useFormState();
  return name ? state.fieldErrors?.[name] : undefined;
}

const describedBy = (id: string, hint: ReactNode, error: string | undefined) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function Label({ htmlFor, label, hint, errorId, error }: { htmlFor: string; label: ReactNode; hint?: ReactNode; errorId: string; error?: string }) {
  return (
    <>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${htmlFor}-hint`} className="mt-0.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled input that shows the server's message for its field. */
export function TextField({ label, hint, name, className = '', ...props }: ComponentProps<'input'> & { label: ReactNode; hint?: ReactNode; name: string }) {
  const id = useId();
  const error = useFieldError(name);
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} errorId={`${id}-error`} error={error} />
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={CONTROL} {...props} />
    </div>
  );
}

export function SelectField({
  label,
  hint,
  name,
  options,
  className = '',
  ...props
}: ComponentProps<'select'> & { label: ReactNode; hint?: ReactNode; name: string; options: readonly (string | { value: string; label: string })[] }) {
  const id = useId();
  const error = useFieldError(name);
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} errorId={`${id}-error`} error={error} />
      <select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={CONTROL} {...props}>
        {options.map((option) => {
          const { value, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** A group of checkboxes with a legend (e.g. an API key's scopes). */
export function CheckboxGroup({
  legend,
  name,
  options,
  hint,
}: {
  legend: string;
  name: string;
  options: readonly { value: string; label: string; description?: string }[];
  hint?: string;
}) {
  const error = useFieldError(name);
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {hint ? <p className="mt-0.5 text-xs text-slate-600">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option.value} className="flex items-start gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50">
            <input type="checkbox" name={name} value={option.value} className="mt-0.5 h-4 w-4 accent-brand-600" />
            <span>
              <span className="font-mono text-slate-900">{option.label}</span>
              {option.description ? <span className="block text-xs text-slate-600">{option.description}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A labelled multi-line input that shows the server's message for its field. */
export function TextAreaField({
  label,
  hint,
  name,
  className = '',
  ...props
}: ComponentProps<'textarea'> & { label: ReactNode; hint?: ReactNode; name: string }) {
  const id = useId();
  const error = useFieldError(name);
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} errorId={`${id}-error`} error={error} />
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={CONTROL} {...props} />
    </div>
  );
}
