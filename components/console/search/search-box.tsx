'use client';

import { useEffect, useRef } from 'react';

/** The console header's search: a plain GET form (works without JavaScript); `/` focuses it. */
export function SearchBox({ action, defaultValue }: { action: string; defaultValue?: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <search className="min-w-0 flex-1 sm:max-w-sm">
      <form action={action}>
        <label htmlFor="console-search" className="sr-only">
          Search customers, payments, subscriptions, links and events
        </label>
        <input
          ref={input}
          id="console-search"
          name="q"
          type="search"
          defaultValue={defaultValue}
          placeholder="Search (press /)"
          aria-keyshortcuts="/"
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
        />
      </form>
    </search>
  );
}
