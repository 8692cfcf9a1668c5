import Link from 'next/link';
import { LineChart, ShareBar } from '@/components/charts/line-chart';
import { Badge, Card, EmptyState } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { formatMoney } from '@/lib/money/format';
import { bucketLabel } from '@/lib/reports/range';
import type { SellerProfile } from '@/lib/operator/seller-profile';
import { utcTime } from '@/components/audit/audit-table';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Gross volume per currency over 30 UTC days and the payments' outcomes. */
export function SellerVolume({ profile }: { profile: SellerProfile }) {
  const { overview } = profile;
  const currencies = Object.keys(overview.grossVolume);
  const labels = overview.keys.map(bucketLabel);
  const outcomes = overview.payments.current;
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
      {currencies.length === 0 ? (
        <Card title="Volume, last 30 days">
          <p className="text-sm text-slate-600">No payments in the last 30 days.</p>
        </Card>
      ) : null}
      {currencies.map((currency) => {
        const series = overview.grossVolume[currency]!;
        const format = (value: number) => formatMoney(value, currency);
        const title = `Volume (${currency}), last 30 days`;
        return (
          <Card key={currency} title={title}>
            <p className="mb-2 text-2xl font-semibold tabular-nums">{format(sum(series.current))}</p>
            <LineChart
              title={title}
              labels={labels}
              previousLabels={overview.previousKeys.map(bucketLabel)}
              current={series.current}
              previous={series.previous}
              format={format}
              summary={`${title}: ${format(sum(series.current))}; the 30 days before: ${format(sum(series.previous))}.`}
            />
          </Card>
        );
      })}
      <Card title="Payments, last 30 days">
        <ShareBar
          title="Payment outcomes"
          parts={[
            { label: 'Succeeded', value: outcomes.succeeded, className: 'bg-green-600' },
            { label: 'Failed', value: outcomes.failed, className: 'bg-red-600' },
            { label: 'Unknown', value: outcomes.unknown, className: 'bg-amber-500' },
          ]}
        />
      </Card>
    </div>
  );
}

export function SellerKeys({ profile }: { profile: SellerProfile }) {
  if (profile.apiKeys.length === 0) return <EmptyState title="No API keys" />;
  return (
    <Table caption="API keys" head={['Name', 'Prefix', 'Scopes', 'Created', 'Last used', 'State']}>
      {profile.apiKeys.map((key) => (
        <tr key={key.id}>
          <Cell>{key.name}</Cell>
          <Cell className="font-mono text-xs whitespace-nowrap">{key.prefix}…</Cell>
          <Cell className="min-w-56 text-xs">{key.scopes.join(', ')}</Cell>
          <Cell className="whitespace-nowrap text-xs">{utcTime(key.createdAt)}</Cell>
          <Cell className="whitespace-nowrap text-xs">{key.lastUsedAt ? utcTime(key.lastUsedAt) : 'never'}</Cell>
          <Cell>{key.revokedAt ? <Badge tone="gray">Revoked</Badge> : <Badge tone="green">Active</Badge>}</Cell>
        </tr>
      ))}
    </Table>
  );
}

export function SellerEndpoints({ profile }: { profile: SellerProfile }) {
  if (profile.endpoints.length === 0) return <EmptyState title="No webhook endpoints" />;
  return (
    <Table caption="Webhook endpoints" head={['Endpoint', 'Health', 'Delivered (7 d)', 'Retrying', 'Dead', 'Pending']}>
      {profile.endpoints.map((endpoint) => (
        <tr key={endpoint.id}>
          <Cell className="max-w-72 min-w-56 font-mono text-xs break-all">
            {endpoint.url}
            <span className="block text-slate-600">
              {endpoint.id} · secret {endpoint.secretPrefix}…
            </span>
          </Cell>
          <Cell className="whitespace-nowrap">
            {!endpoint.enabled ? (
              <Badge tone="gray">Disabled ({endpoint.disabledReason ?? 'manual'})</Badge>
            ) : endpoint.failingSince ? (
              <Badge tone="red">Failing since {utcTime(endpoint.failingSince)}</Badge>
            ) : (
              <Badge tone="green">Healthy</Badge>
            )}
          </Cell>
          <Cell className="text-right tabular-nums">{endpoint.delivered}</Cell>
          <Cell className="text-right tabular-nums">{endpoint.retrying}</Cell>
          <Cell className="text-right tabular-nums">{endpoint.dead}</Cell>
          <Cell className="text-right tabular-nums">{endpoint.pending}</Cell>
        </tr>
      ))}
    </Table>
  );
}

export function SellerRequests({ caption, requests }: { caption: string; requests: SellerProfile['recentRequests'] }) {
  if (requests.length === 0) return <EmptyState title={`No ${caption.toLowerCase()}`} />;
  return (
    <Table caption={caption} head={['Time', 'Request', 'Status', 'Key', 'Request id']}>
      {requests.map((request) => (
        <tr key={request.id}>
          <Cell className="whitespace-nowrap text-xs">{utcTime(request.createdAt)}</Cell>
          <Cell className="font-mono text-xs whitespace-nowrap">
            {request.method} {request.path}
          </Cell>
          <Cell>
            <Badge tone={request.status >= 500 ? 'red' : request.status >= 400 ? 'gray' : 'green'}>{request.status}</Badge>
          </Cell>
          <Cell className="text-xs">{request.apiKeyName ?? '—'}</Cell>
          <Cell className="font-mono text-xs">{request.requestId}</Cell>
        </tr>
      ))}
    </Table>
  );
}

export function SuspensionHistory({ profile }: { profile: SellerProfile }) {
  if (profile.suspensions.length === 0) return <EmptyState title="Never suspended" />;
  return (
    <Table caption="Suspension history" head={['Time', 'Change', 'By', 'Why']}>
      {profile.suspensions.map((entry) => (
        <tr key={entry.id}>
          <Cell className="whitespace-nowrap text-xs">{utcTime(entry.createdAt)}</Cell>
          <Cell>{entry.action === 'merchant.suspended' ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Reinstated</Badge>}</Cell>
          <Cell className="text-sm">{entry.actorLabel ?? entry.actorKind}</Cell>
          <Cell className="text-sm">
            {typeof entry.metadata.reason === 'string' ? entry.metadata.reason : <span className="text-slate-600">no reason given</span>}
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

export function AuditLink({ merchantId }: { merchantId: string }) {
  return (
    <Link href={`/admin/audit-log?seller=${merchantId}`} className="text-sm text-brand-700 underline">
      Everything in the audit log for this seller
    </Link>
  );
}
