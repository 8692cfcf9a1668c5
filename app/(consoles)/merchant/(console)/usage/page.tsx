import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { listUsage } from '@/lib/usage/usage-reports';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { UsageRecordsTable } from '@/app/(consoles)/merchant/(console)/usage/usage-records-table';
import { currentSeller } from '../../session';
import { randomUUID } from 'node:crypto';
import { RecordUsageForm } from '@/app/(consoles)/merchant/(console)/usage/record-usage-form';
import { RoleGate } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';

export const metadata: Metadata = { title: 'Usage' };

const text = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export default async function UsagePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const reversible = roleCan(user.role, 'subscriptions:write');
  const query = await searchParams;
  const page = pageParam(query.page);
  const customerId = text(query.customerId);
  const feature = text(query.feature);
  const usage = await listUsage(getDb(), merchant.id, { page, pageSize: 50, orderBy: 'timestamp', orderDirection: 'desc', customerId, feature });
  const filtered = Boolean(customerId || feature);
  return (
    <>
      <PageHeader title="Usage" description="Usage your backend recorded (POST /api/Usage, Usage/Batch, Check with consume), newest first." />
      <Card title="Record usage" className="mb-6">
        <RoleGate role={user.role} permission="subscriptions:write">
          <RecordUsageForm formKey={randomUUID()} customerId={customerId} />
        </RoleGate>
      </Card>
      <FilterForm label="Filter usage" action="/merchant/usage" filtered={filtered}>
        <FilterField id="usage-customer" label="Customer id">
          <input id="usage-customer" name="customerId" defaultValue={customerId} className={`${FILTER_CONTROL} w-72 font-mono`} />
        </FilterField>
        <FilterField id="usage-feature" label="Feature">
          <input id="usage-feature" name="feature" defaultValue={feature} className={`${FILTER_CONTROL} w-48 font-mono`} />
        </FilterField>
      </FilterForm>
      {usage.totalCount === 0 ? (
        <EmptyState title={filtered ? 'No usage matches' : 'No usage yet'}>
          {filtered ? 'Check the customer id and feature, or clear the filter.' : 'Records appear when your backend reports usage. See docs/usage.md.'}
        </EmptyState>
      ) : (
        <>
          <UsageRecordsTable records={usage.data} timeZone={merchant.timeZone} reversible={reversible} />
          <Pagination {...usage} basePath="/merchant/usage" query={{ customerId, feature }} />
        </>
      )}
    </>
  );
}
