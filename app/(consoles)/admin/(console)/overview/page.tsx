import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { now } from '@/lib/clock';
import { formatMoney } from '@/lib/money/format';
import { loadPlatformOverview, parsePlatformRange } from '@/lib/operator/platform-overview';
import { REPORT_RANGES } from '@/lib/reports/range';
import { requireSession } from '@/lib/server/web/session';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { PlatformCharts, PlatformRangePicker } from '@/components/admin/platform-charts';
import { QueueHealth } from '@/components/admin/queue-health';

export const metadata: Metadata = { title: 'Platform overview' };

const utc = (date: Date | null) => (date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '—');

export default async function PlatformOverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireSession('admin');
  const range = parsePlatformRange((await searchParams).range);
  const overview = await loadPlatformOverview(getDb(), { range, at: now() });
  const currencies = Object.keys(overview.topSellers);
  return (
    <>
      <PageHeader
        title="Platform overview"
        description={`Every seller, last ${REPORT_RANGES[range].label} against the ${REPORT_RANGES[range].label} before, by UTC day.`}
        actions={<PlatformRangePicker range={range} />}
      />
      <PlatformCharts overview={overview} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Queues and backlog</h2>
      <QueueHealth overview={overview} />

      <div className="mt-8 grid grid-cols-1 gap-4 xl:grid-cols-2">
        <Card title="Sellers by volume">
          {currencies.length === 0 ? (
            <EmptyState title="No volume in this period" />
          ) : (
            <div className="space-y-4">
              {currencies.map((currency) => (
                <Table key={currency} caption={`Sellers by ${currency} volume`} head={['Seller', `Volume (${currency})`, 'Payments']}>
                  {overview.topSellers[currency]!.map((seller) => (
                    <tr key={seller.merchantId}>
                      <Cell>
                        <Link href={`/admin/sellers/${seller.merchantId}`} className="font-medium text-brand-700 underline">
                          {seller.name}
                        </Link>
                        {seller.status === 'suspended' ? (
                          <span className="ml-2">
                            <Badge tone="red">Suspended</Badge>
                          </span>
                        ) : null}
                      </Cell>
                      <Cell className="text-right tabular-nums whitespace-nowrap">{formatMoney(seller.volume, currency)}</Cell>
                      <Cell className="text-right tabular-nums">{seller.payments}</Cell>
                    </tr>
                  ))}
                </Table>
              ))}
            </div>
          )}
        </Card>
        <Card title="Webhooks across sellers">
          <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
            <div>
              <dt className="text-xs text-slate-600">Failing or disabled endpoints</dt>
              <dd className="text-xl font-semibold tabular-nums">{overview.unhealthyEndpoints.total}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Dead deliveries, this period</dt>
              <dd className="text-xl font-semibold tabular-nums">{overview.deadDeliveries.current}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Dead deliveries, previous</dt>
              <dd className="text-xl font-semibold tabular-nums text-slate-600">{overview.deadDeliveries.previous}</dd>
            </div>
          </dl>
          {overview.unhealthyEndpoints.data.length === 0 ? (
            <EmptyState title="Every endpoint is healthy" />
          ) : (
            <Table caption="Failing and disabled endpoints" head={['Seller', 'Endpoint', 'State', 'Retrying']}>
              {overview.unhealthyEndpoints.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <Cell>
                    <Link href={`/admin/sellers/${endpoint.merchantId}`} className="text-brand-700 underline">
                      {endpoint.merchantName}
                    </Link>
                  </Cell>
                  <Cell className="max-w-64 break-all font-mono text-xs">{endpoint.url}</Cell>
                  <Cell className="whitespace-nowrap">
                    {endpoint.enabled ? (
                      <Badge tone="red">Failing since {utc(endpoint.failingSince)}</Badge>
                    ) : (
                      <Badge tone="gray">Disabled ({endpoint.disabledReason ?? 'manual'})</Badge>
                    )}
                  </Cell>
                  <Cell className="text-right tabular-nums">{endpoint.retrying}</Cell>
                </tr>
              ))}
            </Table>
          )}
          {overview.unhealthyEndpoints.total > overview.unhealthyEndpoints.data.length ? (
            <p className="mt-2 text-xs text-slate-600">
              Showing the {overview.unhealthyEndpoints.data.length} longest failing of {overview.unhealthyEndpoints.total}.
            </p>
          ) : null}
        </Card>
      </div>
    </>
  );
}
