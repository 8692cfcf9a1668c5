import { AUDIT_ACTIONS, AUDIT_ACTION_NAMES, isAuditAction, type AuditAction } from '@/lib/audit/actions';
import type { AuditFilters } from '@/lib/audit/audit-log';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';

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
  const filtered = Object.values(echo).some(Boolean);
  return (
    <FilterForm label="Filter the audit log" action={action} filtered={filtered} boxed>
      {withSeller ? (
        <FilterField id="audit-seller" label="Seller id" grow>
          <input id="audit-seller" name="seller" defaultValue={echo.seller} placeholder="mer_…" className={`${FILTER_CONTROL} w-full font-mono sm:w-56`} />
        </FilterField>
      ) : null}
      <FilterField id="audit-action" label="Action" grow>
        <select id="audit-action" name="action" defaultValue={echo.action ?? ''} className={`${FILTER_CONTROL} w-full sm:w-auto`}>
          <option value="">Any action</option>
          {AUDIT_ACTION_NAMES.map((name) => (
            <option key={name} value={name}>
              {AUDIT_ACTIONS[name]}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="audit-actor" label="Actor (email, name or id)" grow>
        <input id="audit-actor" name="actor" defaultValue={echo.actor} className={`${FILTER_CONTROL} w-full sm:w-56`} />
      </FilterField>
      <FilterField id="audit-from" label="From (UTC)">
        <input id="audit-from" name="from" type="date" defaultValue={echo.from} className={FILTER_CONTROL} />
      </FilterField>
      <FilterField id="audit-to" label="To (UTC)">
        <input id="audit-to" name="to" type="date" defaultValue={echo.to} className={FILTER_CONTROL} />
      </FilterField>
    </FilterForm>
  );
}

/** The link to the next (older) page, keeping the filters. */
export function nextPageHref(path: string, echo: Record<string, string | undefined>, cursor: string | null): string | undefined {
  if (!cursor) return undefined;
  const params = new URLSearchParams(Object.entries({ ...echo, before: cursor }).filter((e): e is [string, string] => Boolean(e[1])));
  return `${path}?${params}`;
}
