import Link from 'next/link';
import type { ReactNode } from 'react';

/** One section of the customer page: a heading, an optional "all of them" link, and its list or an empty line. */
export function HubSection({
  id,
  title,
  more,
  empty,
  children,
}: {
  id: string;
  title: string;
  more?: { href: string; label: string };
  empty?: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="min-w-0">
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {title}
        </h2>
        {more ? (
          <Link href={more.href} prefetch={false} className="text-sm text-brand-700 hover:underline">
            {more.label}
          </Link>
        ) : null}
      </div>
      {empty ? <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-3 text-sm text-slate-600">{empty}</p> : children}
    </section>
  );
}

export const hubLink = 'font-mono text-xs text-brand-700 hover:underline';
