import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getProduct } from '@/lib/catalog/products';
import { listPrices } from '@/lib/catalog/prices';
import { listTaxRates } from '@/lib/tax/tax-rates';
import { aggregationLabel, meteredRate } from '@/lib/catalog/price-terms';
import { listPoliciesOfPrices } from '@/lib/entitlements/policies';
import { formatMoney } from '@/lib/money/format';
import { ActionForm } from '@/components/ui/action-form';
import { NewPriceFields } from '@/components/console/price-form/new-price-fields';
import { Badge, Card, DescriptionList, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { ProductEditForm } from '@/app/(consoles)/merchant/(console)/products/[productId]/product-edit-form';
import { PricePolicies } from '@/components/console/price-policies';
import { currentSeller } from '../../../session';
import { EntitlementPolicyForm } from '@/app/(consoles)/merchant/entitlement-forms';
import { RoleGate } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';
import { priceTerms } from '@/lib/catalog/price-terms';
import { createPriceAction, setPriceActiveAction, setProductActiveAction } from '../../../actions';
import { ActiveToggleForm } from '@/components/console/active-toggle-form';

export const metadata: Metadata = { title: 'Product' };

export default async function ProductPage({
  params,
  searchParams,
}: {
  params: Promise<{ productId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchant, user } = await currentSeller('view');
  const { productId } = await params;
  const page = pageParam((await searchParams).page);
  const db = getDb();
  const product = await getProduct(db, merchant.id, productId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const prices = await listPrices(db, merchant.id, { productId, page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  const taxRates = (await listTaxRates(db, merchant.id, { page: 1, pageSize: 100, orderBy: 'createdAt', orderDirection: 'asc', active: true })).data;
  const policies = await listPoliciesOfPrices(
    db,
    merchant.id,
    prices.data.map((price) => price.id),
  );

  const canEdit = roleCan(user.role, 'catalog:write');
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/products" className="text-brand-700 hover:underline">
          ← Products
        </Link>
      </p>
      <PageHeader
        title={product.name}
        description={product.description ?? undefined}
        actions={
          canEdit ? (
            <ActiveToggleForm
              action={setProductActiveAction}
              idField="productId"
              id={product.id}
              active={product.active}
              noun="product"
              question="Deactivate this product? It can be activated again."
            />
          ) : undefined
        }
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_400px]">
        <div className="space-y-6">
          <Card title="Details">
            <DescriptionList
              items={[
                [
                  'Id',
                  <span className="font-mono" key="id">
                    {product.id}
                  </span>,
                ],
                [
                  'Status',
                  product.active ? (
                    <Badge tone="green" key="s">
                      Active
                    </Badge>
                  ) : (
                    <Badge key="s">Inactive</Badge>
                  ),
                ],
                ['Created', `${product.createdAt.replace('T', ' ').slice(0, 16)} UTC`],
              ]}
            />
          </Card>
          <Card title="Edit product">
            <RoleGate role={user.role} permission="catalog:write">
              <ProductEditForm product={product} />
            </RoleGate>
          </Card>
          <section aria-labelledby="prices-heading">
            <h2 id="prices-heading" className="mb-3 text-lg font-semibold">
              Prices
            </h2>
            {prices.totalCount === 0 ? (
              <EmptyState title="No prices yet">Add a one-time or recurring price with the form.</EmptyState>
            ) : (
              <>
                <Table caption="Prices" head={['Price', 'Billing', 'Status', '']}>
                  {prices.data.map((price) => (
                    <tr key={price.id}>
                      <Cell className="whitespace-nowrap">
                        {price.usageType === 'metered' ? (
                          <span className="block max-w-md font-medium whitespace-normal" data-testid="price-terms">
                            {meteredRate(price)}
                          </span>
                        ) : (
                          <span className="font-medium">{formatMoney(price.amount, price.currency)}</span>
                        )}
                        <span className="block font-mono text-xs text-slate-600">{price.id}</span>
                        {policies.has(price.id) ? (
                          <div className="mt-2 whitespace-normal">
                            <PricePolicies policies={policies.get(price.id)!} currency={price.currency} recurring={price.type === 'Recurring'} />
                          </div>
                        ) : null}
                      </Cell>
                      <Cell className="whitespace-nowrap">
                        {price.type === 'OneTime'
                          ? 'One time'
                          : `Every ${price.intervalCount === 1 ? '' : `${price.intervalCount} `}${price.interval}${price.intervalCount === 1 ? '' : 's'}`}
                        {price.trialDays ? ` · ${price.trialDays}-day trial` : ''}
                        {price.usageType === 'metered' ? <span className="block text-xs text-slate-600">in arrears · {aggregationLabel(price)}</span> : null}
                      </Cell>
                      <Cell>{price.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</Cell>
                      <Cell className="text-right">
                        {canEdit ? (
                          <ActiveToggleForm
                            action={setPriceActiveAction}
                            idField="priceId"
                            id={price.id}
                            active={price.active}
                            question="Deactivate this price?"
                          />
                        ) : null}
                      </Cell>
                    </tr>
                  ))}
                </Table>
                <Pagination {...prices} basePath={`/merchant/products/${product.id}`} />
                <Card title="Add an entitlement policy" className="mt-6">
                  <p className="mb-3 text-sm text-slate-600">What a customer of the price may use of a feature: one policy per feature and price.</p>
                  <RoleGate role={user.role} permission="subscriptions:write">
                    <EntitlementPolicyForm prices={prices.data.map((price) => ({ id: price.id, label: `${priceTerms(price)} (${price.id})` }))} />
                  </RoleGate>
                </Card>
              </>
            )}
          </section>
        </div>
        <Card title="New price" className="h-fit">
          <RoleGate role={user.role} permission="catalog:write">
            <ActionForm action={createPriceAction} ariaLabel="New price">
              <NewPriceFields
                productId={product.id}
                taxChoices={
                  taxRates.length > 0 ? (
                    <fieldset className="mt-4 space-y-2">
                      <legend className="text-sm font-medium text-slate-900">Tax rates</legend>
                      <p className="text-xs text-slate-600">None ticked: your default rates (Tax rates page).</p>
                      {taxRates.map((rate) => (
                        <label key={rate.id} className="flex items-center gap-2 text-sm text-slate-800">
                          <input type="checkbox" name="taxRateIds" value={rate.id} className="h-4 w-4 accent-brand-600" />
                          {rate.displayName} {rate.percentage}% {rate.inclusive ? '(inclusive)' : '(exclusive)'}
                          {rate.country ? ` · ${rate.country}` : ''}
                        </label>
                      ))}
                    </fieldset>
                  ) : null
                }
              />
            </ActionForm>
          </RoleGate>
        </Card>
      </div>
    </>
  );
}
