import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listWebhookEvents } from '@/lib/webhooks/deliveries';
import { EVENT_TYPES, isEventType } from '@/lib/events/types';
import { Badge, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { WebhooksTabs } from '@/components/console/webhooks/tabs';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { currentMerchant } from '../../../session';

export const metadata: Metadata = { title: 'Event log' };

export default async function WebhookEventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('developers:read');
  const query = await searchParams;
  const page = pageParam(query.page);
  const type = typeof query.type === 'string' && isEventType(query.type) ? query.type : undefined;
  const kind = query.kind === 'test' || query.kind === 'real' ? query.kind : undefined;
  const test = kind === undefined ? undefined : kind === 'test';
  const events = await listWebhookEvents(getDb(), merchant.id, { type, test, page, pageSize: 25, orderBy: 'createdAt', orderDirection: 'desc' });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every event of your account, whether or not an endpoint received it. Each is the exact body a delivery sends."
      />
      <WebhooksTabs current="events" />
      <FilterForm label="Filter events" action="/merchant/webhooks/events" filtered={Boolean(type || kind)}>
        <FilterField id="event-type" label="Event type">
          <select id="event-type" name="type" defaultValue={type ?? ''} className={`${FILTER_CONTROL} w-64 font-mono shadow-sm`}>
            <option value="">All types</option>
            {EVENT_TYPES.map((eventType) => (
              <option key={eventType} value={eventType}>
                {eventType}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField id="event-kind" label="Real or test">
          <select id="event-kind" name="kind" defaultValue={kind ?? ''} className={`${FILTER_CONTROL} w-44 shadow-sm`}>
            <option value="">Real and test</option>
            <option value="real">Real events only</option>
            <option value="test">Test events only</option>
          </select>
        </FilterField>
      </FilterForm>
      {events.totalCount === 0 ? (
        <EmptyState title={type ? `No ${type} events yet` : 'No events yet'}>
          Events appear here as things happen in your account, for example when you create a product.
        </EmptyState>
      ) : (
        <>
          <Table caption="Events" head={['Type', 'Event', 'Object', 'Created']}>
            {events.data.map((event) => {
              const object = event.data.object as { id?: unknown };
              return (
                <tr key={event.id} className="hover:bg-slate-50">
                  <Cell>
                    <Link
                      href={`/merchant/webhooks/events/${event.id}`}
                      prefetch={false}
                      className="font-mono text-sm font-medium text-brand-700 hover:underline"
                    >
                      {event.type}
                    </Link>
                    {event.data.test ? (
                      <span className="ml-2">
                        <Badge tone="blue">Test</Badge>
                      </span>
                    ) : null}
                  </Cell>
                  <Cell className="font-mono text-xs text-slate-600">{event.id}</Cell>
                  <Cell className="font-mono text-xs text-slate-600">{typeof object.id === 'string' ? object.id : '—'}</Cell>
                  <Cell className="text-xs whitespace-nowrap">{formatConsoleDateTime(event.createdAt, merchant.timeZone)}</Cell>
                </tr>
              );
            })}
          </Table>
          <Pagination {...events} basePath="/merchant/webhooks/events" query={{ type, kind }} label="Event pages" />
        </>
      )}
    </>
  );
}
