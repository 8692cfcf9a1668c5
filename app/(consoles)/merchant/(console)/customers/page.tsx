import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listCustomers } from '@/lib/customers/customers';
import { buttonClass } from '@/components/ui/button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { NewCustomerForm } from '@/app/(consoles)/merchant/customer-forms';
import { RoleGate } from '@/components/console/role-gate';
import { Cell, Table } from '@/components/ui/table';
import { FILTER_CONTROL, FilterField, FilterForm } from '@/components/ui/filter-form';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { currentSeller } from '../../session';

export const metadata: Metadata = { title: 'Customers' };

export default async function CustomersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const query = await searchParams;
  const page = pageParam(query.page);
  const email = typeof query.email === 'string' && query.email.trim() ? query.email.trim() : undefined;
  const customers = await listCustomers(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc', email });
  return (
    <>
      <PageHeader
        title="Customers"
        description="People and companies who bought from you, created at checkout or through the API."
        actions={
          <a href="/merchant/exports/customers.csv" className={buttonClass('secondary')} download>
            Export CSV
          </a>
        }
      />
      <FilterForm label="Find customers" action="/merchant/customers" filtered={Boolean(email)} submitLabel="Search">
        <FilterField id="customer-email" label="Find by email">
          <input id="customer-email" name="email" type="email" defaultValue={email} className={`${FILTER_CONTROL} w-72`} />
        </FilterField>
      </FilterForm>
      <Card title="New customer" className="mb-6">
        <RoleGate role={user.role} permission="customers:write">
          <NewCustomerForm />
        </RoleGate>
      </Card>
      {customers.totalCount === 0 ? (
        <EmptyState title={email ? 'No customer with that email' : 'No customers yet'}>
          {email
            ? 'Check the address, or clear the search.'
            : 'Customers appear when a checkout completes, your backend creates them or you add one with the form above.'}
        </EmptyState>
      ) : (
        <>
          <Table caption="Customers" head={['Customer', 'Email', 'Status', 'Created']}>
            {customers.data.map((customer) => (
              <tr key={customer.id} className="hover:bg-slate-50">
                <Cell>
                  <Link href={`/merchant/customers/${customer.id}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                    {customer.name ?? customer.id}
                  </Link>
                </Cell>
                <Cell className="break-all">{customer.email ?? '—'}</Cell>
                <Cell>{customer.status === 'active' ? <Badge tone="green">Active</Badge> : <Badge>Archived</Badge>}</Cell>
                <Cell className="whitespace-nowrap">{formatConsoleDate(customer.createdAt, merchant.timeZone)}</Cell>
              </tr>
            ))}
          </Table>
          <Pagination {...customers} basePath="/merchant/customers" query={{ email }} />
        </>
      )}
    </>
  );
}
