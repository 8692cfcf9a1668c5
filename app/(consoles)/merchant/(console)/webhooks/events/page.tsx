import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listWebhookEvents } from '@/lib/webhooks/deliveries';
import { EVENT_TYPES, isEventType } from '@/lib/events/types';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { buttonClass } from '@/components/ui/button';
import { WebhooksTabs } from '@/components/console/webhooks/tabs';
import { formatConsoleDateTime } from '@/lib/web/console-time';
import { currentMerchant } from '../../../session';

export const metadata: Metadata = { title: 'Event log' };

export default async function WebhookEventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('developers:read');
  const query = await searchParams;
  const page = pageParam(query.page);
  const type = typeof query.type === 'string' && isEventType(query.type) ? query.type : undefined;
  const events = await listWebhookEvents(getDb(), merchant.id, { type, page, pageSize: 25, orderBy: 'createdAt', orderDirection: 'desc' });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every event of your account, whether or not an endpoint received it. Each is the exact body a delivery sends."
      />
      <WebhooksTabs current="events" />
      {/* A plain GET form: the filter is in the address, so it can be shared and works without JavaScript. */}
      <search aria-label="Filter events">
        <form method="get" action="/merchant/webhooks/events" className="mb-4 flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="event-type" className="block text-sm font-medium text-slate-800">
              Event type
            </label>
            <select
              id="event-type"
              name="type"
              defaultValue={type ?? ''}
              className="mt-1 block w-64 max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none"
            >
              <option value="">All types</option>
              {EVENT_TYPES.map((eventType) => (
                <option key={eventType} value={eventType}>
                  {eventType}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonClass('secondary')}>
            Filter
          </button>
          {type ? (
            <Link href="/merchant/webhooks/events" prefetch={false} className={buttonClass('ghost')}>
              Clear
            </Link>
          ) : null}
        </form>
      </search>
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
                  </Cell>
                  <Cell className="font-mono text-xs text-slate-600">{event.id}</Cell>
                  <Cell className="font-mono text-xs text-slate-600">{typeof object.id === 'string' ? object.id : '—'}</Cell>
                  <Cell className="text-xs whitespace-nowrap">{formatConsoleDateTime(event.createdAt, merchant.timeZone)}</Cell>
                </tr>
              );
            })}
          </Table>
          <Pagination {...events} basePath="/merchant/webhooks/events" query={{ type }} label="Event pages" />
        </>
      )}
    </>
  );
}
