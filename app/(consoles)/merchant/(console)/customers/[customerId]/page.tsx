import type { Metadata } from 'next';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/web/console-time';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/errors';
import { getCustomer } from '@/lib/customers/customers';
import { listCustomValues } from '@/lib/customers/custom-values';
import { listPaymentMethods } from '@/lib/payments/payment-methods';
import { Badge, Card, DescriptionList, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { UsageOverview } from '@/components/usage/usage-overview';
import { currentMerchant } from '../../../session';

export const metadata: Metadata = { title: 'Customer' };

export default async function CustomerPage({
  params,
  searchParams,
}: {
  params: Promise<{ customerId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const merchant = await currentMerchant('view');
  const { customerId } = await params;
  const query = await searchParams;
  const db = getDb();
  const customer = await getCustomer(db, merchant.id, customerId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const valuesPage = pageParam(query.valuesPage);
  const methodsPage = pageParam(query.methodsPage);
  const [values, methods] = await Promise.all([
    listCustomValues(db, merchant.id, customerId, { page: valuesPage, pageSize: 20, orderBy: 'key', orderDirection: 'asc' }),
    listPaymentMethods(db, merchant.id, customerId, { page: methodsPage, pageSize: 10, orderDirection: 'desc' }),
  ]);
  const base = `/merchant/customers/${customer.id}`;
  const metadataEntries = Object.entries(customer.metadata);

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/customers" className="text-brand-700 hover:underline">
          ← Customers
        </Link>
      </p>
      <PageHeader title={customer.name ?? customer.email ?? customer.id} description={customer.email ?? undefined} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Details">
          <DescriptionList
            items={[
              ['Id', <span className="font-mono" key="id">{customer.id}</span>],
              ['Email', customer.email ?? '—'],
              ['External id', customer.externalId ?? '—'],
              ['Status', customer.status === 'active' ? <Badge tone="green" key="s">Active</Badge> : <Badge key="s">Archived</Badge>],
              ['Created', formatConsoleDateTime(customer.createdAt, merchant.timeZone)],
              ...metadataEntries.map(([key, value]): [string, string] => [`metadata.${key}`, value]),
            ]}
          />
        </Card>
        <Card title="Payment methods">
          {methods.totalCount === 0 ? (
            <EmptyState title="No saved payment methods" />
          ) : (
            <>
              <ul className="divide-y divide-slate-100">
                {methods.data.map((method) => (
                  <li key={method.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                    <span>
                      <span className="font-medium capitalize">{method.brand}</span> •••• {method.last4}
                      <span className="ml-2 text-slate-600">
                        expires {String(method.expMonth).padStart(2, '0')}/{method.expYear}
                      </span>
                    </span>
                    {method.isDefault ? <Badge tone="blue">Default</Badge> : null}
                  </li>
                ))}
              </ul>
              <Pagination {...methods} basePath={base} query={{ valuesPage: String(valuesPage) }} param="methodsPage" label="Payment method pages" />
            </>
          )}
        </Card>
      </div>
      <div className="mt-6">
        <UsageOverview merchantId={merchant.id} customerId={customer.id} audience="seller" />
      </div>
      <section aria-labelledby="values-heading" className="mt-6">
        <h2 id="values-heading" className="mb-3 text-lg font-semibold">
          Custom values
        </h2>
        {values.totalCount === 0 ? (
          <EmptyState title="No custom values">Your backend can store key–value data on a customer through the API.</EmptyState>
        ) : (
          <>
            <Table caption="Custom values" head={['Key', 'Value', 'Updated']}>
              {values.data.map((value) => (
                <tr key={value.key}>
                  <Cell className="font-mono text-xs">{value.key}</Cell>
                  <Cell className="break-all">{value.value}</Cell>
                  <Cell className="whitespace-nowrap">{formatConsoleDate(value.updatedAt, merchant.timeZone)}</Cell>
                </tr>
              ))}
            </Table>
            <Pagination {...values} basePath={base} query={{ methodsPage: String(methodsPage) }} param="valuesPage" label="Custom value pages" />
          </>
        )}
      </section>
    </>
  );
}
