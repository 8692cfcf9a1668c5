import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { now } from '@/lib/clock';
import { loadOverview } from '@/lib/reports/overview';
import { parseReportRange, REPORT_RANGES } from '@/lib/reports/range';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { Alert } from '@/components/ui/alert';
import { OverviewCharts, RangePicker } from '@/components/console/overview/overview-charts';
import { currentSeller } from '../session';
import { statusWord } from '@/lib/server/web/status-words';

export const metadata: Metadata = { title: 'Overview' };

export default async function MerchantOverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await currentSeller('view');
  const query = await searchParams;
  const range = parseReportRange(query.range);
  const overview = await loadOverview(getDb(), merchant.id, { range, timeZone: merchant.timeZone, at: now() });
  return (
    <>
      {query.forbidden ? <Alert tone="warning">Your role cannot open that page. Ask an Owner or Admin of the account if you need it.</Alert> : null}
      <PageHeader
        title={`Welcome, ${merchant.name}`}
        description={
          <span className="inline-flex items-center gap-2">
            {merchant.accountType} account <Badge tone={merchant.status === 'active' ? 'green' : 'red'}>{statusWord('account', merchant.status)}</Badge>
            <span>
              · last {REPORT_RANGES[range].label} against the {REPORT_RANGES[range].label} before, in {merchant.timeZone}
            </span>
          </span>
        }
        actions={<RangePicker range={range} />}
      />
      <OverviewCharts overview={overview} />
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <Card title="Get started">
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            <li>
              <Link className="text-brand-700 underline" href="/merchant/products">
                Create a product
              </Link>{' '}
              and give it a price.
            </li>
            <li>
              <Link className="text-brand-700 underline" href="/merchant/developers/api-keys">
                Create an API key
              </Link>{' '}
              with only the scopes your backend needs.
            </li>
            <li>
              Call the developer API from your backend — see the{' '}
              <Link className="text-brand-700 underline" href="/docs/api">
                API reference
              </Link>
              .
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
