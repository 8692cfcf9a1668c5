import Link from 'next/link';
import { LineChart, ShareBar } from '@/components/charts/line-chart';
import { formatMoney } from '@/lib/money/format';
import type { MoneySeries, Overview, Series } from '@/lib/reports/overview';
import { bucketLabel, changeLabel, REPORT_RANGES, shareLabel, type ReportRangeKey } from '@/lib/reports/range';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const count = (value: number) => String(value);

/** Links to the same page over each range (`{path}?range=…`); the seller's overview offers every range. */
export function RangePicker({
  range,
  path = '/merchant',
  keys = Object.keys(REPORT_RANGES) as ReportRangeKey[],
}: {
  range: ReportRangeKey;
  path?: string;
  keys?: readonly ReportRangeKey[];
}) {
  return (
    <nav aria-label="Range" className="flex flex-wrap gap-1 rounded-md border border-slate-200 bg-white p-1 shadow-sm">
      {keys.map((key) => (
        <Link
          key={key}
          href={`${path}?range=${key}`}
          prefetch={false}
          aria-current={key === range ? 'page' : undefined}
          className={`rounded px-3 py-1 text-sm ${key === range ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
        >
          {REPORT_RANGES[key].label}
        </Link>
      ))}
    </nav>
  );
}

export function ChartCard({ title, figure, change, children }: { title: string; figure: string; change: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-sm font-medium text-slate-600">{title}</h2>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <span className="text-2xl font-semibold text-slate-900 tabular-nums">{figure}</span>
        <span className="text-xs text-slate-600">{change}</span>
      </p>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/**
 * One series (callers draw one per currency: amounts in different currencies are never added up),
 * charted per bucket against the period before (dashed). `stock` series (MRR, active
 * subscriptions) are read at the period's end; flows (volume) are summed over it. `buckets` names
 * the buckets in the summary when the labels alone do not (e.g. " (UTC days)").
 */
export function SeriesCard({
  title,
  series,
  overview,
  format,
  stock = false,
  buckets = '',
}: {
  title: string;
  series: Series;
  overview: Pick<Overview, 'keys' | 'previousKeys'>;
  format: (v: number) => string;
  stock?: boolean;
  buckets?: string;
}) {
  const figure = stock ? (series.current.at(-1) ?? 0) : sum(series.current);
  const before = stock ? (series.previous.at(-1) ?? 0) : sum(series.previous);
  const labels = overview.keys.map(bucketLabel);
  return (
    <ChartCard title={title} figure={format(figure)} change={`${changeLabel(figure, before)} vs previous period`}>
      <LineChart
        title={title}
        labels={labels}
        previousLabels={overview.previousKeys.map(bucketLabel)}
        current={series.current}
        previous={series.previous}
        format={format}
        summary={`${title}: ${format(figure)} ${stock ? `at ${labels.at(-1)}` : `from ${labels[0]} to ${labels.at(-1)}`}${buckets}; previous period ${format(before)}.`}
      />
    </ChartCard>
  );
}

function MoneyCards({ title, money, overview, stock }: { title: string; money: MoneySeries; overview: Overview; stock?: boolean }) {
  const currencies = Object.keys(money);
  if (currencies.length === 0) {
    return (
      <SeriesCard
        title={title}
        series={{ current: overview.keys.map(() => 0), previous: overview.keys.map(() => 0) }}
        overview={overview}
        format={count}
        stock={stock}
      />
    );
  }
  return currencies.map((currency) => (
    <SeriesCard
      key={currency}
      title={`${title} (${currency})`}
      series={money[currency]!}
      overview={overview}
      format={(value) => formatMoney(value, currency)}
      stock={stock}
    />
  ));
}

export function OverviewCharts({ overview }: { overview: Overview }) {
  const payments = overview.payments;
  const paymentTotal = (c: typeof payments.current) => c.succeeded + c.failed + c.unknown;
  const deliveries = overview.webhookDeliveries;
  const deliveryFinished = (c: typeof deliveries.current) => c.delivered + c.retrying + c.dead;
  const movementCurrencies = Object.keys(overview.mrrMovement);
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      <MoneyCards title="Gross volume" money={overview.grossVolume} overview={overview} />
      <MoneyCards title="Net volume (after refunds and lost disputes)" money={overview.netVolume} overview={overview} />
      {Object.keys(overview.disputesLost).length > 0 ? <MoneyCards title="Disputes lost" money={overview.disputesLost} overview={overview} /> : null}
      <MoneyCards title="MRR" money={overview.mrr} overview={overview} stock />
      <section aria-label="MRR movement" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="text-sm font-medium text-slate-600">MRR movement</h2>
        {movementCurrencies.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No subscriptions yet.</p>
        ) : (
          movementCurrencies.map((currency) => {
            const { current, previous } = overview.mrrMovement[currency]!;
            const rows = [
              ['New', current.new, previous.new],
              ['Expansion', current.expansion, previous.expansion],
              ['Contraction', current.contraction, previous.contraction],
              ['Churn', current.churn, previous.churn],
            ] as const;
            return (
              <table key={currency} className="mt-2 w-full text-sm">
                <caption className="py-1 text-left text-xs text-slate-600">{currency}</caption>
                <thead>
                  <tr className="text-xs text-slate-600">
                    <th scope="col" className="text-left font-medium">
                      Movement
                    </th>
                    <th scope="col" className="text-right font-medium">
                      This period
                    </th>
                    <th scope="col" className="text-right font-medium">
                      Previous
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(([label, now, before]) => (
                    <tr key={label} className="border-t border-slate-100">
                      <th scope="row" className="py-1 text-left font-normal">
                        {label}
                      </th>
                      <td className="py-1 text-right tabular-nums">{formatMoney(now, currency)}</td>
                      <td className="py-1 text-right text-slate-600 tabular-nums">{formatMoney(before, currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          })
        )}
      </section>
      <SeriesCard title="Active subscriptions" series={overview.activeSubscriptions} overview={overview} format={count} stock />
      <SeriesCard title="New customers" series={overview.newCustomers} overview={overview} format={count} />
      <ChartCard
        title="Payment success rate"
        figure={shareLabel(payments.current.succeeded, paymentTotal(payments.current))}
        change={`previous period ${shareLabel(payments.previous.succeeded, paymentTotal(payments.previous))}`}
      >
        <ShareBar
          title="Payments this period"
          parts={[
            { label: 'Succeeded', value: payments.current.succeeded, className: 'bg-green-600' },
            { label: 'Failed', value: payments.current.failed, className: 'bg-red-600' },
            { label: 'Unknown', value: payments.current.unknown, className: 'bg-amber-500' },
          ]}
        />
        <p className="mt-2 text-xs text-slate-600">
          Previous period: {payments.previous.succeeded} succeeded, {payments.previous.failed} failed, {payments.previous.unknown} unknown.
        </p>
      </ChartCard>
      <ChartCard
        title="Webhook delivery success rate"
        figure={shareLabel(deliveries.current.delivered, deliveryFinished(deliveries.current))}
        change={`previous period ${shareLabel(deliveries.previous.delivered, deliveryFinished(deliveries.previous))}`}
      >
        <ShareBar
          title="Webhook deliveries this period"
          parts={[
            { label: 'Delivered', value: deliveries.current.delivered, className: 'bg-green-600' },
            { label: 'Retrying', value: deliveries.current.retrying, className: 'bg-amber-500' },
            { label: 'Dead', value: deliveries.current.dead, className: 'bg-red-600' },
            { label: 'Pending', value: deliveries.current.pending, className: 'bg-slate-400' },
          ]}
        />
      </ChartCard>
    </div>
  );
}
