import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listUsage } from '@/lib/usage/usage-reports';
import { buttonClass } from '@/components/ui/button';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { UsageRecordsTable } from '@/components/usage/usage-records-table';
import { currentMerchant } from '../../session';

export const metadata: Metadata = { title: 'Usage' };

const text = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export default async function UsagePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('view');
  const query = await searchParams;
  const page = pageParam(query.page);
  const customerId = text(query.customerId);
  const feature = text(query.feature);
  const usage = await listUsage(getDb(), merchant.id, { page, pageSize: 50, orderBy: 'timestamp', orderDirection: 'desc', customerId, feature });
  const filtered = Boolean(customerId || feature);
  return (
    <>
      <PageHeader title="Usage" description="Usage your backend recorded (POST /api/Usage, Usage/Batch, Check with consume), newest first." />
      <search aria-label="Filter usage">
        <form className="mb-4 flex flex-wrap items-end gap-2" action="/merchant/usage">
          <div>
            <label htmlFor="usage-customer" className="block text-sm font-medium text-slate-800">
              Customer id
            </label>
            <input
              id="usage-customer"
              name="customerId"
              defaultValue={customerId}
              className="mt-1 w-72 max-w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
          </div>
          <div>
            <label htmlFor="usage-feature" className="block text-sm font-medium text-slate-800">
              Feature
            </label>
            <input
              id="usage-feature"
              name="feature"
              defaultValue={feature}
              className="mt-1 w-48 max-w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
          </div>
          <button type="submit" className={buttonClass('secondary')}>
            Filter
          </button>
          {filtered ? (
            <Link href="/merchant/usage" className={buttonClass('ghost')}>
              Clear
            </Link>
          ) : null}
        </form>
      </search>
      {usage.totalCount === 0 ? (
        <EmptyState title={filtered ? 'No usage matches' : 'No usage yet'}>
          {filtered ? 'Check the customer id and feature, or clear the filter.' : 'Records appear when your backend reports usage. See docs/usage.md.'}
        </EmptyState>
      ) : (
        <>
          <UsageRecordsTable records={usage.data} timeZone={merchant.timeZone} />
          <Pagination {...usage} basePath="/merchant/usage" query={{ customerId, feature }} />
        </>
      )}
    </>
  );
}
