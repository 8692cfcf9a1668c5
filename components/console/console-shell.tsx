import Link from 'next/link';
import type { ReactNode } from 'react';
import { SubmitButton } from '@/components/ui/submit-button';
import { NavLinks, type NavItem } from './nav-links';

export interface ShellWords {
  skip: string;
  signOut: string;
  signingOut: string;
  /** The navigation's name; "{consoleName} sections" when not given. */
  sections?: string;
}

const ENGLISH_WORDS: ShellWords = { skip: 'Skip to content', signOut: 'Sign out', signingOut: 'Signing out…' };

/**
 * The frame of every console: product name and console, who is signed in, sign-out, and the
 * section navigation (a sidebar on wide screens, wrapping rows on phones).
 */
export function ConsoleShell({
  consoleName,
  home,
  nav,
  who,
  signOut,
  search,
  lang,
  words = ENGLISH_WORDS,
  children,
}: {
  consoleName: string;
  home: string;
  nav: NavItem[];
  who: string;
  signOut: () => Promise<void>;
  /** A search box in the header (the seller console's). */
  search?: ReactNode;
  /** The wallet is shown in its member's language (lib/i18n); the other consoles are English. */
  lang?: string;
  words?: ShellWords;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen" lang={lang}>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        {words.skip}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <Link href={home} className="flex items-baseline gap-2" prefetch={false}>
            <span className="text-lg font-bold tracking-tight text-brand-700">Paybase</span>
            <span className="text-sm text-slate-600">{consoleName}</span>
          </Link>
          {search}
          <div className="flex items-center gap-3">
            <span className="hidden max-w-64 truncate text-sm text-slate-700 sm:inline" title={who}>
              {who}
            </span>
            <form action={signOut}>
              <SubmitButton variant="secondary" size="sm" pendingText={words.signingOut}>
                {words.signOut}
              </SubmitButton>
            </form>
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row">
        <nav aria-label={words.sections ?? `${consoleName} sections`} className="md:w-52 md:shrink-0">
          <NavLinks items={nav} exact={home} />
        </nav>
        <main id="main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}
