import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getWebhookEvent, listWebhookDeliveries } from '@/lib/webhooks/deliveries';
import { getWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { CopyButton } from '@/components/ui/copy-button';
import { DeliveryTable } from '@/components/console/webhooks/delivery-table';
import { prettyJson } from '@/components/console/webhooks/format';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { currentMerchant } from '../../../../session';
import { ScrollRegion } from '@/components/ui/scroll-region';

export const metadata: Metadata = { title: 'Event' };

export default async function WebhookEventPage({
  params,
  searchParams,
}: {
  params: Promise<{ eventId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const merchant = await currentMerchant('developers:read');
  const { eventId } = await params;
  const page = pageParam((await searchParams).page);
  const db = getDb();
  const event = await getWebhookEvent(db, merchant.id, eventId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const deliveries = await listWebhookDeliveries(db, merchant.id, { eventId, page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  const endpointIds = [...new Set(deliveries.data.map((delivery) => delivery.endpointId))];
  const endpointUrls = Object.fromEntries(await Promise.all(endpointIds.map(async (id) => [id, (await getWebhookEndpoint(db, merchant.id, id)).url] as const)));
  const body = JSON.stringify(event);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/webhooks/events" prefetch={false} className="text-brand-700 hover:underline">
          ← Event log
        </Link>
      </p>
      <PageHeader title={event.type} description={<span className="font-mono">{event.id}</span>} />
      <div className="space-y-6">
        <Card title="Details">
          <DescriptionList
            items={[
              [
                'Type',
                <span className="font-mono" key="type">
                  {event.type}
                </span>,
              ],
              [
                'Id',
                <span className="font-mono" key="id">
                  {event.id}
                </span>,
              ],
              ['Created', formatConsoleDateTime(event.createdAt, merchant.timeZone)],
            ]}
          />
        </Card>
        <Card title="Body" actions={<CopyButton value={body} label="Copy JSON" />}>
          <p className="mb-2 text-xs text-slate-600">
            What every delivery of this event sends, shown indented (the request carries it on one line, identical on every attempt).
          </p>
          <ScrollRegion
            as="pre"
            label="Event JSON body"
            className="max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
            testId="event-body"
          >
            {prettyJson(event)}
          </ScrollRegion>
        </Card>
        <section aria-labelledby="event-deliveries-heading">
          <h2 id="event-deliveries-heading" className="mb-3 text-lg font-semibold">
            Deliveries
          </h2>
          <DeliveryTable
            deliveries={deliveries.data}
            timeZone={merchant.timeZone}
            show="endpoint"
            endpointUrls={endpointUrls}
            empty="No endpoint was subscribed to this event type when it happened, so it was not delivered."
          />
          {deliveries.totalCount > 0 ? <Pagination {...deliveries} basePath={`/merchant/webhooks/events/${event.id}`} label="Delivery pages" /> : null}
        </section>
      </div>
    </>
  );
}
