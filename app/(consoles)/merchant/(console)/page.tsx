import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listProducts } from '@/lib/catalog/products';
import { listPrices } from '@/lib/catalog/prices';
import { listCustomers } from '@/lib/customers/customers';
import { listApiKeyPage } from '@/lib/auth/api-keys';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { Alert } from '@/components/ui/alert';
import { currentSeller } from '../session';
import { roleCan } from '@/lib/merchants/roles';

export const metadata: Metadata = { title: 'Overview' };

const ONE = { page: 1, pageSize: 1, orderDirection: 'desc' as const };

export default async function MerchantOverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const { forbidden } = await searchParams;
  const db = getDb();
  const [products, prices, customers, keys] = await Promise.all([
    listProducts(db, merchant.id, { ...ONE, orderBy: 'createdAt', active: true }),
    listPrices(db, merchant.id, { ...ONE, orderBy: 'createdAt', active: true }),
    listCustomers(db, merchant.id, { ...ONE, orderBy: 'createdAt' }),
    listApiKeyPage(db, merchant.id, { ...ONE, orderBy: 'createdAt', revoked: false }),
  ]);
  const stats = [
    { label: 'Active products', value: products.totalCount, href: '/merchant/products' },
    { label: 'Active prices', value: prices.totalCount, href: '/merchant/products' },
    { label: 'Customers', value: customers.totalCount, href: '/merchant/customers' },
    ...(roleCan(user.role, 'developers:read') ? [{ label: 'Active API keys', value: keys.totalCount, href: '/merchant/developers/api-keys' }] : []),
  ];
  return (
    <>
      {forbidden ? <Alert tone="warning">Your role cannot open that page. Ask an Owner or Admin of the account if you need it.</Alert> : null}
      <PageHeader
        title={`Welcome, ${merchant.name}`}
        description={
          <span className="inline-flex items-center gap-2">
            {merchant.accountType} account <Badge tone={merchant.status === 'active' ? 'green' : 'red'}>{merchant.status}</Badge>
          </span>
        }
      />
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {stats.map((stat) => (
          <li key={stat.label}>
            <Link href={stat.href} prefetch={false} className="block rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600">
              <p className="text-sm text-slate-600">{stat.label}</p>
              <p className="mt-1 text-3xl font-semibold text-slate-900">{stat.value}</p>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <Card title="Get started">
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            <li>
              <Link className="text-brand-700 underline" href="/merchant/products">Create a product</Link> and give it a price.
            </li>
            <li>
              <Link className="text-brand-700 underline" href="/merchant/developers/api-keys">Create an API key</Link> with only the scopes your backend needs.
            </li>
            <li>
              Call the developer API from your backend — see the <Link className="text-brand-700 underline" href="/docs/api">API reference</Link>.
            </li>
          </ol>
        </Card>
        <Card title="Your account">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-600">Seller id</dt>
            <dd className="font-mono break-all">{merchant.id}</dd>
            <dt className="text-slate-600">Email</dt>
            <dd className="break-all">{merchant.email}</dd>
            <dt className="text-slate-600">Member since</dt>
            <dd>{formatConsoleDate(merchant.createdAt, merchant.timeZone)}</dd>
          </dl>
        </Card>
      </div>
    </>
  );
}
