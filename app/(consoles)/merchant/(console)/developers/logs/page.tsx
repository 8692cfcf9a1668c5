import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listApiKeyPage } from '@/lib/auth/api-keys';
import { listRequestLogs, REQUEST_LOG_RETENTION_DAYS, STATUS_CLASSES } from '@/lib/request-logs/request-logs';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { buttonClass } from '@/components/ui/button';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { currentMerchant } from '../../../session';
import { HttpStatusBadge } from './status-badge';

export const metadata: Metadata = { title: 'Logs' };

const text = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export default async function RequestLogsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('developers:read');
  const query = await searchParams;
  const db = getDb();
  const statusClass = STATUS_CLASSES.find((c) => c === query.status);
  const path = text(query.path);
  const apiKeyId = text(query.key);
  const requestId = text(query.requestId);
  const before = Number(text(query.before)) || undefined;
  const [logs, keys] = await Promise.all([
    listRequestLogs(db, merchant.id, { statusClass, path, apiKeyId, requestId, before }),
    listApiKeyPage(db, merchant.id, { page: 1, pageSize: 100, orderBy: 'name', orderDirection: 'asc' }),
  ]);
  const filters = { status: statusClass, path, key: apiKeyId, requestId };
  const filtered = Boolean(statusClass || path || apiKeyId || requestId);
  const next = new URLSearchParams(
    Object.entries({ ...filters, before: logs.nextBefore ? String(logs.nextBefore) : undefined }).filter((e): e is [string, string] => Boolean(e[1])),
  );

  return (
    <>
      <PageHeader
        title="Logs"
        description={`Every developer-API request of the last ${REQUEST_LOG_RETENTION_DAYS} days, newest first. Paste the X-Request-Id your backend logged to find one; failed requests keep their bodies, with secrets and card data removed.`}
      />
      <FilterForm label="Filter requests" action="/merchant/developers/logs" filtered={filtered} boxed>
        <FilterField id="filter-request-id" label="Request id" grow>
          <input
            id="filter-request-id"
            name="requestId"
            defaultValue={requestId}
            placeholder="req_…"
            className={`${FILTER_CONTROL} w-full font-mono sm:w-64`}
          />
        </FilterField>
        <FilterField id="filter-status" label="Status">
          <select id="filter-status" name="status" defaultValue={statusClass ?? ''} className={FILTER_CONTROL}>
            <option value="">Any status</option>
            {STATUS_CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField id="filter-path" label="Path starts with" grow>
          <input id="filter-path" name="path" defaultValue={path} placeholder="/api/Payment" className={`${FILTER_CONTROL} w-full sm:w-48`} />
        </FilterField>
        <FilterField id="filter-key" label="API key">
          <select id="filter-key" name="key" defaultValue={apiKeyId ?? ''} className={FILTER_CONTROL}>
            <option value="">Any key</option>
            {keys.data.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name}
              </option>
            ))}
          </select>
        </FilterField>
      </FilterForm>
      {logs.data.length === 0 ? (
        <EmptyState title={filtered ? 'No requests match these filters' : 'No API requests yet'}>
          {filtered
            ? 'Change or clear the filters. Requests older than 30 days are gone.'
            : 'Requests your backend makes with an API key appear here within a second.'}
        </EmptyState>
      ) : (
        <>
          <Table caption="API requests" head={['Status', 'Request', 'Time', 'Duration', 'API key', 'Idempotency key', 'Request id']}>
            {logs.data.map((entry) => (
              <tr key={entry.id} className="hover:bg-slate-50">
                <Cell>
                  <HttpStatusBadge status={entry.status} />
                </Cell>
                <Cell className="whitespace-nowrap">
                  <Link href={`/merchant/developers/logs/${entry.requestId}`} prefetch={false} className="font-mono text-brand-700 hover:underline">
                    {entry.method} {entry.path}
                  </Link>
                </Cell>
                <Cell className="whitespace-nowrap">{formatConsoleDateTime(entry.createdAt, merchant.timeZone)}</Cell>
                <Cell className="whitespace-nowrap tabular-nums">{entry.durationMs} ms</Cell>
                <Cell className="whitespace-nowrap">{entry.apiKeyName ?? '—'}</Cell>
                <Cell className="max-w-48 truncate font-mono text-xs">
                  {entry.idempotencyKey ?? '—'}
                  {entry.replayed ? <span className="ml-1 font-sans text-slate-600">(replayed)</span> : null}
                </Cell>
                <Cell className="font-mono text-xs whitespace-nowrap">{entry.requestId}</Cell>
              </tr>
            ))}
          </Table>
          {logs.nextBefore ? (
            <nav aria-label="Pagination" className="mt-4">
              <Link href={`/merchant/developers/logs?${next}`} prefetch={false} className={buttonClass('secondary')}>
                Older requests
              </Link>
            </nav>
          ) : null}
        </>
      )}
    </>
  );
}
