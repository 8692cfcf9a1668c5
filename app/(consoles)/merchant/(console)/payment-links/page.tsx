import type { Metadata } from 'next';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listPaymentLinks } from '@/lib/payment-links/payment-links';
import { PAYMENT_LINK_STATUSES } from '@/lib/payment-links/schemas';
import { listPrices } from '@/lib/catalog/prices';
import { listCheckoutDesigns } from '@/lib/designs/designs';
import { listProducts } from '@/lib/catalog/products';
import { formatMoney } from '@/lib/money/format';
import { labelsFor } from '@/lib/subscriptions/labels';
import { priceTerms } from '@/lib/catalog/price-terms';
import { CopyButton } from '@/components/ui/copy-button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { currentSeller } from '../../session';
import { RoleGate } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';
import { CreateLinkForm } from './create-form';
import { LinkActions } from './link-forms';
import { PAYMENT_LINK_STATUS_LABELS } from './status';

export const metadata: Metadata = { title: 'Payment links' };

const STATUS = PAYMENT_LINK_STATUS_LABELS;

const interval = (price: { type: string; interval: string | null; intervalCount: number | null }) =>
  price.type === 'OneTime'
    ? 'one time'
    : `every ${price.intervalCount === 1 ? '' : `${price.intervalCount} `}${price.interval}${price.intervalCount === 1 ? '' : 's'}`;

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const canEdit = roleCan(user.role, 'catalog:write');
  const query = await searchParams;
  const db = getDb();
  const page = pageParam(query.page);
  const status = PAYMENT_LINK_STATUSES.find((s) => s === query.status);
  const [links, prices, products, designs] = await Promise.all([
    listPaymentLinks(db, merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc', status }),
    listPrices(db, merchant.id, { page: 1, pageSize: 200, orderBy: 'createdAt', orderDirection: 'desc', active: true }),
    listProducts(db, merchant.id, { page: 1, pageSize: 200, orderBy: 'name', orderDirection: 'asc' }),
    listCheckoutDesigns(db, merchant.id, { page: 1, pageSize: 100, orderBy: 'displayName', orderDirection: 'asc' }),
  ]);
  const productNames = new Map(products.data.map((p) => [p.id, p.name]));
  const linkPrices = (await labelsFor(db, merchant.id, { customerIds: [], priceIds: links.data.flatMap((l) => (l.priceId ? [l.priceId] : [])) })).prices;
  // A metered price bills usage in arrears: a link cannot sell it (the API refuses it too).
  const priceOptions = prices.data
    .filter((price) => price.usageType !== 'metered')
    .map((price) => ({
      value: price.id,
      label: `${productNames.get(price.productId) ?? price.productId} — ${formatMoney(price.amount, price.currency)} ${interval(price)}`,
    }));
  const meteredOptions = prices.data
    .filter((price) => price.usageType === 'metered')
    .map((price) => ({ value: price.id, label: `${productNames.get(price.productId) ?? price.productId} — ${priceTerms(price)}` }));
  const tabs = [{ value: undefined, label: 'All' }, ...PAYMENT_LINK_STATUSES.map((value) => ({ value, label: STATUS[value][0] }))];

  return (
    <>
      <PageHeader
        title="Payment links"
        description="Shareable links that take a payment without any code. Send the URL to a customer or put it on your site."
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <div className="min-w-0">
          <nav aria-label="Filter by status" className="mb-3 flex flex-wrap gap-1">
            {tabs.map((tab) => (
              <Link
                key={tab.label}
                href={tab.value ? `/merchant/payment-links?status=${tab.value}` : '/merchant/payment-links'}
                aria-current={tab.value === status ? 'page' : undefined}
                className="rounded-full px-3 py-1 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
              >
                {tab.label}
              </Link>
            ))}
          </nav>
          {links.totalCount === 0 ? (
            <EmptyState title={status ? `No ${STATUS[status][0].toLowerCase()} payment links` : 'No payment links yet'}>
              {status ? 'Choose another status.' : 'Create one with the form: from a catalog price or an ad hoc amount.'}
            </EmptyState>
          ) : (
            <>
              <ul aria-label="Payment links" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
                {links.data.map((link) => {
                  const [label, tone] = STATUS[link.status];
                  return (
                    <li key={link.id} data-testid="payment-link" className="flex flex-col gap-3 p-4">
                      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
                        <div className="min-w-0">
                          <p className="flex flex-wrap items-center gap-2">
                            <Link href={`/merchant/payment-links/${link.id}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
                              {link.name}
                            </Link>
                            <Badge tone={tone}>{label}</Badge>
                            {link.singleUse ? <span className="text-xs text-slate-600">Single use</span> : null}
                          </p>
                          <p className="mt-1 flex flex-wrap items-center gap-2">
                            <a href={link.url} target="_blank" rel="noreferrer" className="font-mono text-xs break-all text-brand-700 hover:underline">
                              /pay/{link.token}
                            </a>
                            <CopyButton value={link.url} label="Copy URL" />
                          </p>
                        </div>
                        <dl className="flex gap-6 text-sm">
                          <div>
                            <dt className="text-xs text-slate-600">Amount</dt>
                            <dd className="font-medium whitespace-nowrap text-slate-900">
                              {formatMoney(link.amount, link.currency)}
                              {link.priceId && linkPrices.get(link.priceId)?.interval ? (
                                <span className="font-normal text-slate-700" data-testid="link-interval">
                                  {' '}
                                  {linkPrices.get(link.priceId)!.interval}
                                </span>
                              ) : null}
                              {link.quantity > 1 ? (
                                <span className="block text-xs font-normal text-slate-600">
                                  {link.quantity} × {formatMoney(link.unitAmount, link.currency)}
                                </span>
                              ) : null}
                            </dd>
                          </div>
                          <div>
                            <dt className="text-xs text-slate-600">Payments</dt>
                            <dd className="whitespace-nowrap text-slate-900">
                              {link.completionCount}
                              {link.maxCompletions ? ` of ${link.maxCompletions}` : ''}
                            </dd>
                          </div>
                        </dl>
                      </div>
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <span className="text-xs text-slate-600">
                          Created {formatConsoleDateTime(link.createdAt, merchant.timeZone)}
                          {link.expiresAt ? ` · expires ${formatConsoleDateTime(link.expiresAt, merchant.timeZone)}` : ''}
                        </span>
                        {canEdit ? <LinkActions id={link.id} name={link.name} status={link.status} /> : null}
                      </div>
                    </li>
                  );
                })}
              </ul>
              <Pagination {...links} basePath="/merchant/payment-links" query={{ status }} />
            </>
          )}
        </div>
        <Card title="New payment link" className="h-fit">
          <RoleGate role={user.role} permission="catalog:write">
            <CreateLinkForm
              prices={priceOptions}
              meteredPrices={meteredOptions}
              designs={designs.data.map((d) => ({ value: d.id, label: d.isDefault ? `${d.displayName} (default)` : d.displayName }))}
            />
          </RoleGate>
        </Card>
      </div>
    </>
  );
}
