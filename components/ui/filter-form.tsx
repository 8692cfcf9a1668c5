import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClass } from './button';

/** A filter's text input or select; the caller adds its width (and `font-mono` for ids). */
export const FILTER_CONTROL = 'mt-1 block max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';

/**
 * A list page's filters: a plain GET form, so the filter is in the address (it can be shared
 * and works without JavaScript), then the submit button and, while something is filtered, a
 * link back to the whole list. `boxed` sets several filters apart in a card.
 */
export function FilterForm({
  label,
  action,
  filtered,
  submitLabel = 'Filter',
  boxed = false,
  children,
}: {
  label: string;
  action: string;
  filtered: boolean;
  submitLabel?: string;
  boxed?: boolean;
  children: ReactNode;
}) {
  return (
    <search aria-label={label}>
      <form action={action} className={`mb-4 flex flex-wrap items-end ${boxed ? 'gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm' : 'gap-2'}`}>
        {children}
        <button type="submit" className={buttonClass('secondary')}>
          {submitLabel}
        </button>
        {filtered ? (
          <Link href={action} prefetch={false} className={buttonClass('ghost')}>
            Clear
          </Link>
        ) : null}
      </form>
    </search>
  );
}

/** One labelled filter; `grow` lets it take the whole row on a phone. */
export function FilterField({ id, label, grow = false, children }: { id: string; label: string; grow?: boolean; children: ReactNode }) {
  return (
    <div className={grow ? 'min-w-0 grow sm:grow-0' : undefined}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
    </div>
  );
}
