import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { randomUUID } from 'node:crypto';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getWebhookDelivery, getWebhookEvent } from '@/lib/webhooks/deliveries';
import { getWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { Card, DescriptionList, EmptyState, PageHeader } from '@/components/ui/layout';
import { CopyButton } from '@/components/ui/copy-button';
import { RetryDeliveryForm } from '@/components/console/webhooks/retry-form';
import { AutoRefresh } from '@/components/console/webhooks/auto-refresh';
import { DeliveryStatusPill, Pill, ResponseCode } from '@/components/console/webhooks/status';
import { formatDuration, prettyBody, prettyJson } from '@/components/console/webhooks/format';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { currentSeller } from '../../../../session';
import { RoleGate } from '@/components/console/role-gate';
import { retryWebhookDeliveryAction } from '../../../../webhook-actions';
import { ScrollRegion } from '@/components/ui/scroll-region';

export const metadata: Metadata = { title: 'Webhook delivery' };

const TRIGGER_LABEL = { automatic: 'Automatic', manual: 'Manual retry', recover: 'Recovered' } as const;

export default async function WebhookDeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { merchant, user } = await currentSeller('developers:read');
  const { deliveryId } = await params;
  const db = getDb();
  const delivery = await getWebhookDelivery(db, merchant.id, deliveryId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const [event, endpoint] = await Promise.all([getWebhookEvent(db, merchant.id, delivery.eventId), getWebhookEndpoint(db, merchant.id, delivery.endpointId)]);
  const attempts = delivery.attempts.map((attempt, index) => ({ ...attempt, number: index + 1 })).reverse();
  const body = JSON.stringify(event);

  return (
    <>
      {/* The first attempt is seconds away: keep the page current until it shows. */}
      {delivery.status === 'pending' ? <AutoRefresh everyMs={1500} forMs={30_000} /> : null}
      <p className="mb-2 text-sm">
        <Link href={`/merchant/webhooks/${endpoint.id}`} prefetch={false} className="text-brand-700 hover:underline">
          ← Endpoint
        </Link>
        <span className="mx-2 text-slate-400" aria-hidden="true">
          ·
        </span>
        <Link href={`/merchant/webhooks/events/${event.id}`} prefetch={false} className="text-brand-700 hover:underline">
          Event
        </Link>
      </p>
      <PageHeader
        title="Delivery"
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span className="font-mono">{event.type}</span> to <span className="font-mono break-all">{endpoint.url}</span>
          </span>
        }
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0 space-y-6">
          <Card title="Summary">
            <DescriptionList
              items={[
                ['Status', <DeliveryStatusPill status={delivery.status} key="status" />],
                [
                  'Event',
                  <Link key="event" href={`/merchant/webhooks/events/${event.id}`} prefetch={false} className="font-mono text-brand-700 hover:underline">
                    {event.id}
                  </Link>,
                ],
                [
                  'Endpoint',
                  <Link key="endpoint" href={`/merchant/webhooks/${endpoint.id}`} prefetch={false} className="font-mono text-brand-700 hover:underline">
                    {endpoint.url}
                  </Link>,
                ],
                [
                  'Automatic attempts',
                  `${delivery.attemptCount}${delivery.attempts.length > delivery.attemptCount ? ` (+${delivery.attempts.length - delivery.attemptCount} manual or recovered)` : ''}`,
                ],
                ...(delivery.nextAttemptAt ? [['Next attempt', formatConsoleDateTime(delivery.nextAttemptAt, merchant.timeZone)] as [string, string]] : []),
                ...(delivery.deliveredAt ? [['Delivered at', formatConsoleDateTime(delivery.deliveredAt, merchant.timeZone)] as [string, string]] : []),
                ...(delivery.lastError
                  ? [
                      [
                        'Last error',
                        <span key="error" className="text-red-800">
                          {delivery.lastError}
                        </span>,
                      ] as [string, ReactNode],
                    ]
                  : []),
                [
                  'Id',
                  <span className="font-mono" key="id">
                    {delivery.id}
                  </span>,
                ],
                ['Created', formatConsoleDateTime(delivery.createdAt, merchant.timeZone)],
              ]}
            />
          </Card>
          <section aria-labelledby="attempts-heading">
            <h2 id="attempts-heading" className="mb-3 text-lg font-semibold">
              Attempts <span className="text-sm font-normal text-slate-600">newest first</span>
            </h2>
            {attempts.length === 0 ? (
              <EmptyState title="No attempt yet">The first attempt is queued and starts within seconds.</EmptyState>
            ) : (
              <ol className="space-y-4">
                {attempts.map((attempt, index) => (
                  <li
                    key={attempt.number}
                    data-testid={`attempt-${attempt.number}`}
                    className={`rounded-lg border bg-white shadow-sm ${attempt.succeeded ? 'border-slate-200' : 'border-red-200'}`}
                  >
                    <details open={index === 0} className="group">
                      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">
                        <span className="font-semibold text-slate-900">Attempt {attempt.number}</span>
                        {attempt.succeeded ? <Pill tone="green">Succeeded</Pill> : <Pill tone="red">Failed</Pill>}
                        <ResponseCode status={attempt.responseStatus} />
                        <Pill tone="gray">{TRIGGER_LABEL[attempt.trigger]}</Pill>
                        <span className="text-slate-600">{formatConsoleDateTime(attempt.startedAt, merchant.timeZone)}</span>
                        <span className="text-slate-600">{formatDuration(attempt.durationMs)}</span>
                        <span className="ml-auto text-xs text-brand-700 group-open:hidden">Show</span>
                        <span className="ml-auto hidden text-xs text-brand-700 group-open:inline">Hide</span>
                      </summary>
                      <div className="space-y-4 border-t border-slate-100 px-4 py-4">
                        {attempt.error ? (
                          <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                            <span className="font-medium">Error: </span>
                            {attempt.error}
                          </p>
                        ) : null}
                        <div>
                          <h3 className="mb-1 text-sm font-semibold text-slate-800">Request</h3>
                          <p className="mb-2 text-xs text-slate-600">
                            POST <span className="font-mono break-all">{attempt.url}</span> · body: the{' '}
                            <a href="#request-body" className="text-brand-700 underline">
                              event JSON
                            </a>
                            , identical on every attempt
                          </p>
                          <ScrollRegion label={`Request headers of attempt ${attempt.number}`} className="overflow-x-auto rounded-md border border-slate-200">
                            <table className="min-w-full text-xs">
                              <caption className="sr-only">Request headers of attempt {attempt.number}</caption>
                              <tbody className="divide-y divide-slate-100">
                                {Object.entries(attempt.requestHeaders).map(([name, value]) => (
                                  <tr key={name}>
                                    <th scope="row" className="bg-slate-50 px-3 py-1.5 text-left font-mono font-medium whitespace-nowrap text-slate-700">
                                      {name}
                                    </th>
                                    <td className="px-3 py-1.5 font-mono break-all text-slate-900">{value}</td>
                                  </tr>
                                ))}
                              </tbody>
                            </table>
                          </ScrollRegion>
                        </div>
                        <div>
                          <h3 className="mb-1 text-sm font-semibold text-slate-800">
                            Response{' '}
                            {attempt.responseStatus !== null ? <span className="font-normal text-slate-600">· HTTP {attempt.responseStatus}</span> : null}
                          </h3>
                          {attempt.responseStatus === null ? (
                            <p className="text-sm text-slate-600">No response was received.</p>
                          ) : attempt.responseBody ? (
                            <>
                              <ScrollRegion
                                as="pre"
                                label={`Response body of attempt ${attempt.number}`}
                                className="max-h-64 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-900 ring-1 ring-slate-200"
                              >
                                {prettyBody(attempt.responseBody)}
                              </ScrollRegion>
                              <p className="mt-1 text-xs text-slate-500">The first 4 KiB of the body are kept.</p>
                            </>
                          ) : (
                            <p className="text-sm text-slate-600">Empty body.</p>
                          )}
                        </div>
                      </div>
                    </details>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <div id="request-body" className="scroll-mt-4">
            <Card title="Request body" actions={<CopyButton value={body} label="Copy JSON" />}>
              <p className="mb-2 text-xs text-slate-600">The same on every attempt; shown indented, sent on one line.</p>
              <ScrollRegion
                as="pre"
                label="Request body JSON"
                className="max-h-96 overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
              >
                {prettyJson(event)}
              </ScrollRegion>
            </Card>
          </div>
        </div>
        <Card title="Send again" className="order-first h-fit xl:order-last">
          <p className="mb-3 text-sm text-slate-700">
            Sends this delivery once more now, whatever its state, with a fresh signature over the same body. The automatic retry schedule is unchanged.
          </p>
          {!endpoint.enabled ? <p className="mb-3 text-sm text-amber-900">The endpoint is disabled; a manual retry is still sent.</p> : null}
          <RoleGate role={user.role} permission="developers:write">
            <RetryDeliveryForm action={retryWebhookDeliveryAction} deliveryId={delivery.id} formKey={randomUUID()} />
          </RoleGate>
        </Card>
      </div>
    </>
  );
}
