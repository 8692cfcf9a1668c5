import Link from 'next/link';
import { buttonClass } from './button';

export interface PaginationWords {
  /** "Page 2 of 5 · 43 total". */
  position: (page: number, pages: number, total: number) => string;
  previous: string;
  next: string;
}

const ENGLISH: PaginationWords = { position: (page, pages, total) => `Page ${page} of ${pages} · ${total} total`, previous: 'Previous', next: 'Next' };

/** Previous/next links for an L-style page, keeping the other query parameters (`words`: the wallet's language; English elsewhere). */
export function Pagination({
  page,
  pageSize,
  totalCount,
  hasMore,
  basePath,
  query = {},
  param = 'page',
  label = 'Pages',
  words = ENGLISH,
}: {
  page: number;
  pageSize: number;
  totalCount: number;
  hasMore: boolean;
  basePath: string;
  query?: Record<string, string | undefined>;
  param?: string;
  label?: string;
  words?: PaginationWords;
}) {
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  const href = (target: number) => {
    const params = new URLSearchParams(Object.entries({ ...query, [param]: String(target) }).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return `${basePath}?${params}`;
  };
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>{words.position(page, pages, totalCount)}</span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page - 1)} rel="prev">
            {words.previous}
          </Link>
        ) : null}
        {hasMore ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page + 1)} rel="next">
            {words.next}
          </Link>
        ) : null}
      </span>
    </nav>
  );
}

/** Reads `?page=` from search params: a positive integer, else 1. */
export function pageParam(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}
