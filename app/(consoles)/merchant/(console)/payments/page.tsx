import type { Metadata } from 'next';
import { formatConsoleDateTime } from '@/lib/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { customerIdsByEmail, customersByIds } from '@/lib/customers/customers';
import { listPayments } from '@/lib/payments/payments';
import { PAYMENT_STATUSES } from '@/lib/payments/schemas';
import { formatMoney } from '@/lib/money/format';
import { parseDayBound } from '@/lib/web/form-dates';
import { buttonClass } from '@/components/ui/button';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { currentMerchant } from '../../session';
import { PAYMENT_STATUS_OPTIONS, PaymentStatusBadge } from './status-badge';

export const metadata: Metadata = { title: 'Payments' };

const INPUT = 'mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';
const text = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('view');
  const query = await searchParams;
  const db = getDb();
  const page = pageParam(query.page);
  const status = PAYMENT_STATUSES.find((s) => s === query.status);
  const customer = text(query.customer);
  const from = text(query.from);
  const to = text(query.to);
  const createdFrom = parseDayBound(from, 'start');
  const createdTo = parseDayBound(to, 'end');
  const customerFilter = customer
    ? customer.includes('@')
      ? { customerIds: await customerIdsByEmail(db, merchant.id, customer) }
      : { customerId: customer }
    : {};
  const payments = await listPayments(db, merchant.id, {
    page,
    pageSize: 20,
    orderBy: 'createdAt',
    orderDirection: 'desc',
    status,
    createdFrom,
    createdTo,
    ...customerFilter,
  });
  const people = await customersByIds(
    db,
    merchant.id,
    payments.data.map((p) => p.customerId),
  );
  const filtered = Boolean(status || customer || createdFrom || createdTo);

  return (
    <>
      <PageHeader
        title="Payments"
        description="Every payment from checkout, payment links and your backend, newest first. Open one to see its timeline or refund it."
        actions={
          <a
            href={`/merchant/exports/payments.csv?${new URLSearchParams(Object.entries({ from, to }).filter((e): e is [string, string] => Boolean(e[1])))}`}
            className={buttonClass('secondary')}
            download
          >
            Export CSV{from || to ? ' (dates as filtered)' : ''}
          </a>
        }
      />
      <search aria-label="Filter payments">
        <form className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" action="/merchant/payments">
          <div>
            <label htmlFor="filter-status" className="block text-sm font-medium text-slate-800">
              Status
            </label>
            <select id="filter-status" name="status" defaultValue={status ?? ''} className={INPUT}>
              <option value="">Any status</option>
              {PAYMENT_STATUS_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0 grow sm:grow-0">
            <label htmlFor="filter-customer" className="block text-sm font-medium text-slate-800">
              Customer email or id
            </label>
            <input id="filter-customer" name="customer" defaultValue={customer} className={`${INPUT} w-full sm:w-64`} />
          </div>
          <div>
            <label htmlFor="filter-from" className="block text-sm font-medium text-slate-800">
              From (UTC)
            </label>
            <input id="filter-from" name="from" type="date" defaultValue={from} className={INPUT} />
          </div>
          <div>
            <label htmlFor="filter-to" className="block text-sm font-medium text-slate-800">
              To (UTC)
            </label>
            <input id="filter-to" name="to" type="date" defaultValue={to} className={INPUT} />
          </div>
          <button type="submit" className={buttonClass('secondary')}>
            Filter
          </button>
          {filtered ? (
            <Link href="/merchant/payments" className={buttonClass('ghost')}>
              Clear
            </Link>
          ) : null}
        </form>
      </search>
      {payments.totalCount === 0 ? (
        <EmptyState title={filtered ? 'No payments match these filters' : 'No payments yet'}>
          {filtered ? 'Change or clear the filters.' : 'Payments appear when a customer pays a payment link or your backend completes a checkout.'}
        </EmptyState>
      ) : (
        <>
          <Table caption="Payments" head={['Amount', 'Status', 'Customer', 'Description', 'Date']}>
            {payments.data.map((payment) => {
              const person = people.get(payment.customerId);
              return (
                <tr key={payment.id} className="hover:bg-slate-50">
                  <Cell className="whitespace-nowrap">
                    <Link href={`/merchant/payments/${payment.id}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                      {formatMoney(payment.amount, payment.currency)}
                    </Link>
                    {payment.amountRefunded ? (
                      <span className="block text-xs text-slate-600">{formatMoney(payment.amountRefunded, payment.currency)} refunded</span>
                    ) : null}
                  </Cell>
                  <Cell className="whitespace-nowrap">
                    <PaymentStatusBadge status={payment.status} />
                  </Cell>
                  <Cell className="whitespace-nowrap">{person?.email ?? person?.name ?? payment.customerId}</Cell>
                  <Cell className="min-w-40">{payment.description}</Cell>
                  <Cell className="whitespace-nowrap">{formatConsoleDateTime(payment.createdAt, merchant.timeZone)}</Cell>
                </tr>
              );
            })}
          </Table>
          <Pagination {...payments} basePath="/merchant/payments" query={{ status, customer, from, to }} />
        </>
      )}
    </>
  );
}
