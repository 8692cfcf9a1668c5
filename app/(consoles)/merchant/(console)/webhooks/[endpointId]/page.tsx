import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { randomUUID } from 'node:crypto';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { listWebhookDeliveries } from '@/lib/webhooks/deliveries';
import { DELIVERY_STATUSES } from '@/lib/webhooks/schemas';
import { now } from '@/lib/clock';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { RotateSecretForm } from '@/components/console/webhooks/rotate-secret-form';
import { DeliveryTable, StatusFilter } from '@/components/console/webhooks/delivery-table';
import { EndpointStatus, endpointStatusExplanation, needsAttention } from '@/components/console/webhooks/status';
import { toDateTimeLocal } from '@/components/console/webhooks/format';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { WebhookEndpointEditForm } from '@/app/(consoles)/merchant/(console)/webhooks/[endpointId]/webhook-endpoint-edit-form';
import { EVENT_TYPES } from '@/lib/events/types';
import { currentSeller } from '../../../session';
import { RoleRefusal } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';
import {
  deleteWebhookEndpointAction,
  recoverFailedDeliveriesAction,
  rotateWebhookSecretAction,
  sendTestWebhookEventAction,
  setWebhookEndpointEnabledAction,
} from '../../../webhook-actions';

export const metadata: Metadata = { title: 'Webhook endpoint' };

type Status = (typeof DELIVERY_STATUSES)[number];

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ endpointId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchant, user } = await currentSeller('developers:read');
  const canManage = roleCan(user.role, 'developers:write');
  const { endpointId } = await params;
  const query = await searchParams;
  const page = pageParam(query.page);
  const status = DELIVERY_STATUSES.find((value) => value === query.status) as Status | undefined;
  const db = getDb();
  const endpoint = await getWebhookEndpoint(db, merchant.id, endpointId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const deliveries = await listWebhookDeliveries(db, merchant.id, { endpointId, status, page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  const explanation = endpointStatusExplanation(endpoint, (date) => formatConsoleDateTime(date, merchant.timeZone));
  const basePath = `/merchant/webhooks/${endpoint.id}`;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/webhooks" prefetch={false} className="text-brand-700 hover:underline">
          ← Webhooks
        </Link>
      </p>
      <PageHeader
        title="Webhook endpoint"
        description={<span className="font-mono break-all">{endpoint.url}</span>}
        actions={
          canManage ? (
            <ActionForm action={setWebhookEndpointEnabledAction}>
              <input type="hidden" name="endpointId" value={endpoint.id} />
              <input type="hidden" name="enabled" value={String(!endpoint.enabled)} />
              {endpoint.enabled ? (
                <ConfirmButton question="Stop sending events to it?" confirmLabel="Disable endpoint">
                  Disable
                </ConfirmButton>
              ) : (
                <SubmitButton size="sm" pendingText="Enabling…">
                  Enable endpoint
                </SubmitButton>
              )}
            </ActionForm>
          ) : undefined
        }
      />
      {explanation ? <Alert tone={needsAttention(endpoint) ? (endpoint.status === 'failing' ? 'warning' : 'error') : 'info'}>{explanation}</Alert> : null}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <div className="min-w-0 space-y-6">
          <Card title="Details">
            <DescriptionList
              items={[
                ['Status', <EndpointStatus endpoint={endpoint} key="status" />],
                [
                  'URL',
                  <span className="font-mono" key="url">
                    {endpoint.url}
                  </span>,
                ],
                ['Description', endpoint.description ?? '—'],
                [
                  'Events',
                  endpoint.events.includes('*') ? (
                    'All events (*)'
                  ) : (
                    <span className="flex flex-wrap gap-1" key="events">
                      {endpoint.events.map((type) => (
                        <span key={type} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700">
                          {type}
                        </span>
                      ))}
                    </span>
                  ),
                ],
                [
                  'Signing secret',
                  <span className="font-mono" key="secret" data-testid="secret-prefix">
                    {endpoint.secretPrefix}…
                  </span>,
                ],
                ...(endpoint.previousSecretExpiresAt
                  ? [['Previous secret', `also signs until ${formatConsoleDateTime(endpoint.previousSecretExpiresAt, merchant.timeZone)}`] as [string, string]]
                  : []),
                [
                  'Id',
                  <span className="font-mono" key="id">
                    {endpoint.id}
                  </span>,
                ],
                ['Created', formatConsoleDateTime(endpoint.createdAt, merchant.timeZone)],
              ]}
            />
          </Card>
          <section aria-labelledby="deliveries-heading">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
              <h2 id="deliveries-heading" className="text-lg font-semibold">
                Deliveries
              </h2>
              <StatusFilter basePath={basePath} current={status} />
            </div>
            <DeliveryTable
              deliveries={deliveries.data}
              timeZone={merchant.timeZone}
              show="event"
              empty={status ? `No ${status} deliveries.` : 'No deliveries yet: events of the chosen types are sent here as they happen.'}
            />
            {deliveries.totalCount > 0 ? <Pagination {...deliveries} basePath={basePath} query={{ status }} label="Delivery pages" /> : null}
          </section>
        </div>
        <div className="space-y-6">
          {canManage ? (
            <>
              <Card title="Edit endpoint">
                <WebhookEndpointEditForm endpoint={endpoint} eventTypes={EVENT_TYPES} />
              </Card>
              <Card title="Signing secret">
                <p className="mb-3 text-sm text-slate-700">
                  Rotating makes a new secret, shown once. For <strong>24 hours</strong> every delivery is signed with both the new and the current secret (two{' '}
                  <code>v1=</code> values), so your receiver keeps verifying while you deploy the new one. After that only the new one signs.
                </p>
                {endpoint.previousSecretExpiresAt ? (
                  <p className="mb-3 text-sm text-amber-900">A previous secret is still in its overlap; rotating again stops it at once.</p>
                ) : null}
                <RotateSecretForm
                  action={rotateWebhookSecretAction}
                  timeZone={merchant.timeZone}
                  endpointId={endpoint.id}
                  secretPrefix={endpoint.secretPrefix}
                />
              </Card>
              <Card title="Send test event">
                <ActionForm action={sendTestWebhookEventAction} className="space-y-3" ariaLabel="Send test event">
                  <p className="text-sm text-slate-700">
                    Sends a signed sample event of the type you choose to this endpoint only, marked <code>&quot;test&quot;: true</code> in its{' '}
                    <code>data</code>. It need not subscribe to the type.
                  </p>
                  {!endpoint.enabled ? <p className="text-sm text-amber-900">Enable the endpoint first: a disabled endpoint receives nothing.</p> : null}
                  <input type="hidden" name="endpointId" value={endpoint.id} />
                  <input type="hidden" name="formKey" value={randomUUID()} />
                  <SelectField label="Event type" name="type" options={EVENT_TYPES} defaultValue="payment.succeeded" className="font-mono" />
                  <SubmitButton variant="secondary" pendingText="Sending…">
                    Send test event
                  </SubmitButton>
                </ActionForm>
              </Card>
              <Card title="Recover failed deliveries">
                <ActionForm action={recoverFailedDeliveriesAction} className="space-y-3" ariaLabel="Recover failed deliveries">
                  <p className="text-sm text-slate-700">
                    Sends every failed or dead delivery created since the time you choose once more, oldest first, up to 1,000 at a time.
                  </p>
                  {!endpoint.enabled ? <p className="text-sm text-amber-900">Enable the endpoint first: a disabled endpoint receives nothing.</p> : null}
                  <input type="hidden" name="endpointId" value={endpoint.id} />
                  <input type="hidden" name="formKey" value={randomUUID()} />
                  <TextField
                    label="Since (UTC)"
                    name="since"
                    type="datetime-local"
                    required
                    defaultValue={toDateTimeLocal(new Date(now().getTime() - 24 * 60 * 60 * 1000))}
                  />
                  <SubmitButton variant="secondary" pendingText="Queuing…">
                    Recover deliveries
                  </SubmitButton>
                </ActionForm>
              </Card>
            </>
          ) : (
            <Card title="Manage endpoint">
              <RoleRefusal role={user.role} permission="developers:write" />
            </Card>
          )}
          <Card title="Delete endpoint">
            <p className="mb-3 text-sm text-slate-700">
              Deletes the endpoint and its delivery history; queued attempts are dropped. Events stay in the event log.
            </p>
            <ActionForm action={deleteWebhookEndpointAction}>
              <input type="hidden" name="endpointId" value={endpoint.id} />
              <ConfirmButton question="Delete this endpoint and its history?" confirmLabel="Delete endpoint">
                Delete endpoint
              </ConfirmButton>
            </ActionForm>
          </Card>
        </div>
      </div>
    </>
  );
}
