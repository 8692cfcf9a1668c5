import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listMerchants } from '@/lib/merchants/merchants';
import { requireSession } from '@/lib/server/web/session';
import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SubmitButton } from '@/components/ui/submit-button';
import { buttonClass } from '@/components/ui/button';
import { Badge, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { setMerchantStatusAction } from '../actions';

export const metadata: Metadata = { title: 'Sellers' };

const STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
] as const;

export default async function SellersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireSession('admin');
  const query = await searchParams;
  const page = pageParam(query.page);
  const status = query.status === 'active' || query.status === 'suspended' ? query.status : undefined;
  const email = typeof query.email === 'string' && query.email.trim() ? query.email.trim() : undefined;
  const sellers = await listMerchants(getDb(), { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc', status, email });
  return (
    <>
      <PageHeader title="Sellers" description="Suspending a seller stops its API keys and console sign-ins at once." />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <nav aria-label="Filter by status" className="flex gap-1">
          {STATUS_FILTERS.map((filter) => (
            <Link
              key={filter.value}
              href={`/admin?${new URLSearchParams({ ...(filter.value ? { status: filter.value } : {}), ...(email ? { email } : {}) })}`}
              aria-current={(status ?? '') === filter.value ? 'page' : undefined}
              className={`rounded-md px-3 py-1.5 text-sm ${(status ?? '') === filter.value ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              {filter.label}
            </Link>
          ))}
        </nav>
        <search>
          <form action="/admin" className="flex items-end gap-2">
            {status ? <input type="hidden" name="status" value={status} /> : null}
            <div>
              <label htmlFor="seller-email" className="block text-sm font-medium text-slate-800">
                Email contains
              </label>
              <input
                id="seller-email"
                name="email"
                defaultValue={email}
                className="mt-1 w-64 max-w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
              />
            </div>
            <button type="submit" className={buttonClass('secondary')}>
              Search
            </button>
          </form>
        </search>
      </div>
      {sellers.totalCount === 0 ? (
        <EmptyState title="No sellers match" />
      ) : (
        <>
          <Table caption="Sellers" head={['Seller', 'Email', 'Type', 'Status', 'Joined', '']}>
            {sellers.data.map((seller) => (
              <tr key={seller.id} data-testid={`seller-row-${seller.id}`}>
                <Cell>
                  <Link href={`/admin/sellers/${seller.id}`} className="font-medium text-brand-700 underline">
                    {seller.name}
                  </Link>
                  <span className="block font-mono text-xs text-slate-600">{seller.id}</span>
                </Cell>
                <Cell className="break-all">{seller.email}</Cell>
                <Cell>{seller.accountType}</Cell>
                <Cell>{seller.status === 'active' ? <Badge tone="green">Active</Badge> : <Badge tone="red">Suspended</Badge>}</Cell>
                <Cell className="whitespace-nowrap">{seller.createdAt.slice(0, 10)}</Cell>
                <Cell className="text-right">
                  <ActionForm action={setMerchantStatusAction}>
                    <input type="hidden" name="merchantId" value={seller.id} />
                    {seller.status === 'active' ? (
                      <>
                        <input type="hidden" name="status" value="suspended" />
                        <ConfirmButton question="Suspend? Keys and sign-ins stop now." confirmLabel="Suspend seller">
                          Suspend
                        </ConfirmButton>
                      </>
                    ) : (
                      <>
                        <input type="hidden" name="status" value="active" />
                        <SubmitButton variant="secondary" size="sm">
                          Reinstate
                        </SubmitButton>
                      </>
                    )}
                  </ActionForm>
                </Cell>
              </tr>
            ))}
          </Table>
          <Pagination {...sellers} basePath="/admin" query={{ status, email }} />
        </>
      )}
    </>
  );
}
