import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listProducts } from '@/lib/catalog/products';
import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { RoleGate } from '@/components/console/role-gate';
import { currentSeller } from '../../session';
import { createProductAction } from '../../actions';

export const metadata: Metadata = { title: 'Products' };

export default async function ProductsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const page = pageParam((await searchParams).page);
  const products = await listProducts(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  return (
    <>
      <PageHeader title="Products" description="What you sell. Each product has one or more prices." />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div>
          {products.totalCount === 0 ? (
            <EmptyState title="No products yet">Create your first product with the form.</EmptyState>
          ) : (
            <>
              <Table caption="Products" head={['Name', 'Status', 'Created', 'Id']}>
                {products.data.map((product) => (
                  <tr key={product.id} className="hover:bg-slate-50">
                    <Cell>
                      <Link href={`/merchant/products/${product.id}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                        {product.name}
                      </Link>
                    </Cell>
                    <Cell>{product.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</Cell>
                    <Cell className="whitespace-nowrap">{product.createdAt.slice(0, 10)}</Cell>
                    <Cell className="font-mono text-xs text-slate-600">{product.id}</Cell>
                  </tr>
                ))}
              </Table>
              <Pagination {...products} basePath="/merchant/products" />
            </>
          )}
        </div>
        <Card title="New product" className="h-fit">
          <RoleGate role={user.role} permission="catalog:write">
            <ActionForm action={createProductAction} className="space-y-4" ariaLabel="New product">
              <TextField label="Name" name="name" required maxLength={250} />
              <TextField label="Description" name="description" hint="Optional; shown at checkout." maxLength={5000} />
              <SubmitButton pendingText="Creating…">Create product</SubmitButton>
            </ActionForm>
          </RoleGate>
        </Card>
      </div>
    </>
  );
}
