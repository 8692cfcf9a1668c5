import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listWebhookEndpoints } from '@/lib/webhooks/endpoints';
import { EVENT_TYPES } from '@/lib/events/types';
import { Alert } from '@/components/ui/alert';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { NewEndpointForm } from '@/components/console/webhooks/new-endpoint-form';
import { EndpointStatus, needsAttention } from '@/components/console/webhooks/status';
import { WebhooksTabs } from '@/components/console/webhooks/tabs';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { currentSeller } from '../../session';
import { RoleGate } from '@/components/console/role-gate';
import { createWebhookEndpointAction } from '../../webhook-actions';

export const metadata: Metadata = { title: 'Webhooks' };

const ROW_TONE = { failing: 'bg-amber-50/70 border-l-4 border-l-amber-500', disabled: 'bg-red-50/70 border-l-4 border-l-red-500' };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('developers:read');
  const query = await searchParams;
  const page = pageParam(query.page);
  const endpoints = await listWebhookEndpoints(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  return (
    <>
      <PageHeader title="Webhooks" description="Your backend receives signed events at its endpoints; every delivery and attempt is kept here." />
      <WebhooksTabs current="endpoints" />
      {query.deleted ? <Alert tone="success">Endpoint deleted, with its delivery history. Its events stay in the event log.</Alert> : null}
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-[minmax(0,1fr)_440px]">
        <div>
          {endpoints.totalCount === 0 ? (
            <EmptyState title="No webhook endpoints yet">Add the URL of your backend&rsquo;s receiver with the form to start receiving events.</EmptyState>
          ) : (
            <>
              <Table caption="Webhook endpoints" head={['Endpoint', 'Events', 'Status', 'Created']}>
                {endpoints.data.map((endpoint) => (
                  <tr
                    key={endpoint.id}
                    data-testid={`endpoint-row-${endpoint.id}`}
                    className={needsAttention(endpoint) ? ROW_TONE[endpoint.status === 'failing' ? 'failing' : 'disabled'] : 'hover:bg-slate-50'}
                  >
                    <Cell className="max-w-md">
                      <Link href={`/merchant/webhooks/${endpoint.id}`} prefetch={false} className="font-medium break-all text-brand-700 hover:underline">
                        {endpoint.url}
                      </Link>
                      {endpoint.description ? <span className="block text-xs text-slate-600">{endpoint.description}</span> : null}
                    </Cell>
                    <Cell>
                      <EventList events={endpoint.events} />
                    </Cell>
                    <Cell>
                      <EndpointStatus endpoint={endpoint} />
                      {endpoint.status === 'failing' ? (
                        <span className="mt-1 block text-xs whitespace-nowrap text-amber-900">
                          since {formatConsoleDateTime(endpoint.failingSince, merchant.timeZone)}
                        </span>
                      ) : null}
                      {needsAttention(endpoint) && endpoint.status === 'disabled' ? (
                        <span className="mt-1 block text-xs whitespace-nowrap text-red-800">
                          on {formatConsoleDateTime(endpoint.disabledAt, merchant.timeZone)}
                        </span>
                      ) : null}
                    </Cell>
                    <Cell className="whitespace-nowrap">{endpoint.createdAt.slice(0, 10)}</Cell>
                  </tr>
                ))}
              </Table>
              <Pagination {...endpoints} basePath="/merchant/webhooks" label="Endpoint pages" />
            </>
          )}
        </div>
        <Card title="New endpoint" className="h-fit max-w-2xl">
          <RoleGate role={user.role} permission="developers:write">
            <NewEndpointForm action={createWebhookEndpointAction} eventTypes={EVENT_TYPES} />
          </RoleGate>
        </Card>
      </div>
    </>
  );
}

function EventList({ events }: { events: string[] }) {
  if (events.includes('*')) return <span className="text-sm text-slate-700">All events</span>;
  const shown = events.slice(0, 3);
  return (
    <span className="flex max-w-xs flex-wrap gap-1">
      {shown.map((type) => (
        <span key={type} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700">
          {type}
        </span>
      ))}
      {events.length > shown.length ? (
        <span className="text-xs text-slate-600" title={events.join(', ')}>
          +{events.length - shown.length} more
        </span>
      ) : null}
    </span>
  );
}
