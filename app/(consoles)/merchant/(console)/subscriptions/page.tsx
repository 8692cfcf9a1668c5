import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listSubscriptions } from '@/lib/subscriptions/queries';
import { labelsFor } from '@/lib/subscriptions/labels';
import { SUBSCRIPTION_STATUSES } from '@/lib/subscriptions/schemas';
import { buttonClass } from '@/components/ui/button';
import { Badge, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { currentMerchant } from '../../session';
import { statusWord } from '@/lib/server/web/status-words';

export const metadata: Metadata = { title: 'Subscriptions' };

const STATUS_TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;

export default async function SubscriptionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('view');
  const query = await searchParams;
  const page = pageParam(query.page);
  const status = SUBSCRIPTION_STATUSES.find((s) => s === query.status);
  const subs = await listSubscriptions(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc', status });
  const labels = await labelsFor(getDb(), merchant.id, { customerIds: subs.data.map((s) => s.customerId), priceIds: subs.data.map((s) => s.priceId) });
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Recurring billing for your customers: renewals, changes and cancellations."
        actions={
          <>
            <a href="/merchant/test-clocks" className={buttonClass('secondary')}>
              Test clocks
            </a>
            <a href="/merchant/exports/subscriptions.csv" className={buttonClass('secondary')} download>
              Export CSV
            </a>
          </>
        }
      />
      <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
        <Link href="/merchant/subscriptions" className={buttonClass(status ? 'ghost' : 'secondary', 'sm')}>
          All
        </Link>
        {SUBSCRIPTION_STATUSES.map((s) => (
          <Link key={s} href={`/merchant/subscriptions?status=${s}`} className={buttonClass(status === s ? 'secondary' : 'ghost', 'sm')}>
            {statusWord('subscription', s)}
          </Link>
        ))}
      </nav>
      {subs.totalCount === 0 ? (
        <EmptyState title="No subscriptions">Subscriptions start from your API, a recurring checkout or a payment link.</EmptyState>
      ) : (
        <>
          <Table caption="Subscriptions" head={['Customer', 'Plan', 'Status', 'Current period ends', 'Created']}>
            {subs.data.map((sub) => {
              const customer = labels.customers.get(sub.customerId);
              const price = labels.prices.get(sub.priceId);
              return (
                <tr key={sub.id} className="hover:bg-slate-50">
                  <Cell>
                    <Link href={`/merchant/customers/${sub.customerId}`} prefetch={false} className="font-medium hover:underline">
                      {customer?.name || customer?.email || sub.customerId}
                    </Link>
                    {customer?.name && customer.email ? <span className="block text-xs text-slate-600">{customer.email}</span> : null}
                  </Cell>
                  <Cell>
                    <Link
                      href={`/merchant/subscriptions/${sub.id}`}
                      prefetch={false}
                      className="font-medium text-brand-700 hover:underline"
                      aria-label={`Subscription ${sub.id}: ${price?.productName ?? sub.priceId}`}
                    >
                      {price?.productName ?? sub.priceId}
                    </Link>
                    <span className="block text-xs text-slate-600">{price?.amount}</span>
                    <span className="block font-mono text-xs text-slate-500">{sub.id}</span>
                  </Cell>
                  <Cell>
                    <Badge tone={STATUS_TONE[sub.status]}>{statusWord('subscription', sub.status)}</Badge>
                    {sub.cancelAtPeriodEnd ? <span className="ml-2 text-xs text-slate-600">cancels at period end</span> : null}
                  </Cell>
                  <Cell>{formatConsoleDate(sub.currentPeriodEnd, merchant.timeZone)}</Cell>
                  <Cell>{formatConsoleDate(sub.createdAt, merchant.timeZone)}</Cell>
                </tr>
              );
            })}
          </Table>
          <Pagination {...subs} basePath="/merchant/subscriptions" query={{ status }} />
        </>
      )}
    </>
  );
}
