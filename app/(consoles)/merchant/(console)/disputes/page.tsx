import type { Metadata } from 'next';
import Link from 'next/link';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { listDisputes } from '@/lib/payments/disputes';
import { DISPUTE_STATUSES } from '@/lib/payments/schemas';
import { EVIDENCE_OPEN_STATUSES } from '@/lib/payments/dispute-states';
import { formatMoney } from '@/lib/money/format';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { currentMerchant } from '../../session';
import { DISPUTE_STATUS_OPTIONS, DisputeStatusBadge, disputeReasonLabel } from './status-badge';

export const metadata: Metadata = { title: 'Disputes' };

export default async function DisputesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('view');
  const query = await searchParams;
  const status = DISPUTE_STATUSES.find((s) => s === query.status);
  const disputes = await listDisputes(getDb(), merchant.id, {
    page: pageParam(query.page),
    pageSize: 20,
    orderBy: 'createdAt',
    orderDirection: 'desc',
    status,
  });
  return (
    <>
      <PageHeader
        title="Disputes"
        description="Customers who disputed a payment with their card issuer (chargebacks and inquiries), as Stripe reports them. Answer one with evidence before its due date."
      />
      <FilterForm label="Filter disputes" action="/merchant/disputes" filtered={Boolean(status)}>
        <FilterField id="filter-status" label="Status">
          <select id="filter-status" name="status" defaultValue={status ?? ''} className={FILTER_CONTROL}>
            <option value="">Any status</option>
            {DISPUTE_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </FilterField>
      </FilterForm>
      {disputes.totalCount === 0 ? (
        <EmptyState title={status ? 'No disputes with this status' : 'No disputes'}>
          {status ? 'Choose another status or clear the filter.' : 'When a customer disputes a payment with their bank, it shows here.'}
        </EmptyState>
      ) : (
        <>
          <Table caption="Disputes" head={['Amount', 'Status', 'Reason', 'Evidence due', 'Payment', 'Opened']}>
            {disputes.data.map((dispute) => {
              const open = (EVIDENCE_OPEN_STATUSES as readonly string[]).includes(dispute.status);
              return (
                <tr key={dispute.id} className="hover:bg-slate-50">
                  <Cell className="whitespace-nowrap">
                    <Link href={`/merchant/disputes/${dispute.id}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                      {formatMoney(dispute.amount, dispute.currency)}
                    </Link>
                  </Cell>
                  <Cell className="whitespace-nowrap">
                    <DisputeStatusBadge status={dispute.status} />
                  </Cell>
                  <Cell className="min-w-40">{disputeReasonLabel(dispute.reason)}</Cell>
                  <Cell className="whitespace-nowrap">
                    {open && dispute.evidenceDueBy ? (
                      <strong className="font-medium text-red-800">{formatConsoleDate(dispute.evidenceDueBy, merchant.timeZone)}</strong>
                    ) : (
                      '—'
                    )}
                  </Cell>
                  <Cell className="whitespace-nowrap">
                    <Link href={`/merchant/payments/${dispute.paymentId}`} prefetch={false} className="font-mono text-xs text-brand-700 hover:underline">
                      {dispute.paymentId}
                    </Link>
                  </Cell>
                  <Cell className="whitespace-nowrap">{formatConsoleDateTime(dispute.createdAt, merchant.timeZone)}</Cell>
                </tr>
              );
            })}
          </Table>
          <Pagination {...disputes} basePath="/merchant/disputes" query={{ status }} />
        </>
      )}
    </>
  );
}
