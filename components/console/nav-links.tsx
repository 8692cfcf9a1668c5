'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export interface NavItem {
  href: string;
  label: string;
  /** Starts a group with this heading. */
  group?: string;
}

export function NavLinks({ items, exact }: { items: NavItem[]; exact?: string }) {
  const pathname = usePathname();
  const matches = (item: NavItem) => (item.href === exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`));
  // The most specific section wins: Settings → Audit log is not also Settings.
  const current = items.filter(matches).sort((a, b) => b.href.length - a.href.length)[0];
  return (
    // Phones: the sections wrap onto several rows, so none is hidden off-screen; wide screens: a sidebar.
    <ul className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
      {items.map((item) => {
        const active = item === current;
        return (
          <li key={item.href} className="shrink-0">
            {item.group ? <p className="mt-4 mb-1 hidden px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase md:block">{item.group}</p> : null}
            <Link
              href={item.href}
              aria-current={active ? 'page' : undefined}
              prefetch={false}
              className={`flex items-center justify-between gap-2 rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap md:px-3 md:py-2 ${
                active ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-100'
              }`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
