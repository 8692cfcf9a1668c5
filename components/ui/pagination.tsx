import Link from 'next/link';
import { buttonClass } from './button';

/** Previous/next links for an L-style page, keeping the other query parameters. */
export function Pagination({ page, pageSize, totalCount, hasMore, basePath, query = {}, param = 'page', label = 'Pages' }: { page: number; pageSize: number; totalCount: number; hasMore: boolean; basePath: string; query?: Record<string, string | undefined>; param?: string; label?: string }) {
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  const href = (target: number) => {
    const params = new URLSearchParams(Object.entries({ ...query, [param]: String(target) }).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return `${basePath}?${params}`;
  };
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>
        Page {page} of {pages} · {totalCount} total
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page - 1)} rel="prev">
            Previous
          </Link>
        ) : null}
        {hasMore ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page + 1)} rel="next">
            Next
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
