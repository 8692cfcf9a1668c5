import { AUDIT_ACTIONS, AUDIT_ACTION_NAMES, isAuditAction, type AuditAction } from '@/lib/audit/actions';
import type { AuditFilters } from '@/lib/audit/audit-log';
import { buttonClass } from '@/components/ui/button';

const INPUT = 'mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';
const text = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const day = (value: string | undefined, end: boolean) => {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** The audit log's filters from a page's query string: action, actor, UTC days from/to, cursor, and (admin) seller. */
export function auditFiltersOf(query: Record<string, string | string[] | undefined>) {
  const action = text(query.action);
  const filters: AuditFilters & { seller?: string } = {
    action: action && isAuditAction(action) ? (action as AuditAction) : undefined,
    actor: text(query.actor),
    from: day(text(query.from), false),
    to: day(text(query.to), true),
    before: text(query.before),
    seller: text(query.seller),
  };
  const echo = { action: filters.action, actor: filters.actor, from: text(query.from), to: text(query.to), seller: filters.seller };
  return { filters, echo };
}

/** A plain GET form (works without JavaScript); `withSeller` adds the admin's seller filter. */
export function AuditFilterForm({ action, echo, withSeller = false }: { action: string; echo: Record<string, string | undefined>; withSeller?: boolean }) {
  return (
    <search aria-label="Filter the audit log">
      <form action={action} className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        {withSeller ? (
          <div className="min-w-0 grow sm:grow-0">
            <label htmlFor="audit-seller" className="block text-sm font-medium text-slate-800">
              Seller id
            </label>
            <input id="audit-seller" name="seller" defaultValue={echo.seller} placeholder="mer_…" className={`${INPUT} w-full font-mono sm:w-56`} />
          </div>
        ) : null}
        <div className="min-w-0 grow sm:grow-0">
          <label htmlFor="audit-action" className="block text-sm font-medium text-slate-800">
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={echo.action ?? ''} className={`${INPUT} w-full sm:w-auto`}>
            <option value="">Any action</option>
            {AUDIT_ACTION_NAMES.map((name) => (
              <option key={name} value={name}>
                {AUDIT_ACTIONS[name]}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 grow sm:grow-0">
          <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-800">
            Actor (email, name or id)
          </label>
          <input id="audit-actor" name="actor" defaultValue={echo.actor} className={`${INPUT} w-full sm:w-56`} />
        </div>
        <div>
          <label htmlFor="audit-from" className="block text-sm font-medium text-slate-800">
            From (UTC)
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={echo.from} className={INPUT} />
        </div>
        <div>
          <label htmlFor="audit-to" className="block text-sm font-medium text-slate-800">
            To (UTC)
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={echo.to} className={INPUT} />
        </div>
        <button type="submit" className={buttonClass('secondary')}>
          Filter
        </button>
      </form>
    </search>
  );
}

/** The link to the next (older) page, keeping the filters. */
export function nextPageHref(path: string, echo: Record<string, string | undefined>, cursor: string | null): string | undefined {
  if (!cursor) return undefined;
  const params = new URLSearchParams(Object.entries({ ...echo, before: cursor }).filter((e): e is [string, string] => Boolean(e[1])));
  return `${path}?${params}`;
}
