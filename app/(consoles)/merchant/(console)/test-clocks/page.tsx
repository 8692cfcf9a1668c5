import type { Metadata } from 'next';
import { randomUUID } from 'node:crypto';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listTestClocks } from '@/lib/subscriptions/test-clocks';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { RoleGate } from '@/components/console/role-gate';
import { NewTestClockForm, TestClockForms } from '@/app/(consoles)/merchant/(console)/test-clocks/test-clock-forms';
import { roleCan } from '@/lib/merchants/roles';
import { currentSeller } from '../../session';

export const metadata: Metadata = { title: 'Test clocks' };

export default async function TestClocksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const page = pageParam((await searchParams).page);
  const clocks = await listTestClocks(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  const canChange = roleCan(user.role, 'subscriptions:write');
  return (
    <>
      <PageHeader
        title="Test clocks"
        description="Simulated time for subscriptions: attach a customer before subscribing it, then advance the clock to run its trial ends, renewals and retries."
      />
      <Card title="New test clock" className="mb-6">
        <RoleGate role={user.role} permission="subscriptions:write">
          <NewTestClockForm />
        </RoleGate>
      </Card>
      {clocks.totalCount === 0 ? (
        <EmptyState title="No test clocks yet" />
      ) : (
        <div className="space-y-4">
          {clocks.data.map((clock) => (
            <Card key={clock.id} title={clock.name ?? clock.id}>
              <p className="mb-3 text-sm text-slate-700">
                <span className="font-mono text-xs text-slate-500">{clock.id}</span> · now {formatConsoleDateTime(clock.frozenTime, 'UTC')}{' '}
                <Badge tone={clock.status === 'ready' ? 'green' : 'blue'}>{clock.status === 'ready' ? 'Ready' : 'Advancing'}</Badge>
              </p>
              <p className="mb-3 text-sm text-slate-700">
                Customers:{' '}
                {clock.customerIds.length === 0
                  ? 'none'
                  : clock.customerIds.map((id, index) => (
                      <span key={id}>
                        {index > 0 ? ', ' : ''}
                        <Link href={`/merchant/customers/${id}`} prefetch={false} className="font-mono text-xs text-brand-700 hover:underline">
                          {id}
                        </Link>
                      </span>
                    ))}
              </p>
              {canChange ? <TestClockForms testClockId={clock.id} formKey={randomUUID()} /> : null}
            </Card>
          ))}
          <Pagination {...clocks} basePath="/merchant/test-clocks" />
        </div>
      )}
    </>
  );
}
