import type { Metadata } from 'next';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { customerIdsByEmail, customersByIds } from '@/lib/customers/customers';
import { listPayments } from '@/lib/payments/payments';
import { PAYMENT_STATUSES } from '@/lib/payments/schemas';
import { formatMoney } from '@/lib/money/format';
import { parseDayBound } from '@/lib/server/web/form-dates';
import { buttonClass } from '@/components/ui/button';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { currentMerchant } from '../../session';
import { PAYMENT_STATUS_OPTIONS, PaymentStatusBadge } from '../../../../../components/console/payment-status-badge';

export const metadata: Metadata = { title: 'Payments' };

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
      <FilterForm label="Filter payments" action="/merchant/payments" filtered={filtered} boxed>
        <FilterField id="filter-status" label="Status">
          <select id="filter-status" name="status" defaultValue={status ?? ''} className={FILTER_CONTROL}>
            <option value="">Any status</option>
            {PAYMENT_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField id="filter-customer" label="Customer email or id" grow>
          <input id="filter-customer" name="customer" defaultValue={customer} className={`${FILTER_CONTROL} w-full sm:w-64`} />
        </FilterField>
        <FilterField id="filter-from" label="From (UTC)">
          <input id="filter-from" name="from" type="date" defaultValue={from} className={FILTER_CONTROL} />
        </FilterField>
        <FilterField id="filter-to" label="To (UTC)">
          <input id="filter-to" name="to" type="date" defaultValue={to} className={FILTER_CONTROL} />
        </FilterField>
      </FilterForm>
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
