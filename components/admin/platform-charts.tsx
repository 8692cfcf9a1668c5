import { LineChart } from '@/components/charts/line-chart';
import { formatMoney } from '@/lib/money/format';
import type { PlatformOverview } from '@/lib/operator/platform-overview';
import { PLATFORM_RANGES, type PlatformRange } from '@/lib/operator/platform-overview';
import type { Series } from '@/lib/reports/overview';
import { bucketLabel, changeLabel } from '@/lib/reports/range';
import { ChartCard, RangePicker } from '@/components/console/overview/overview-charts';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function PlatformRangePicker({ range }: { range: PlatformRange }) {
  return <RangePicker range={range} path="/admin/overview" keys={PLATFORM_RANGES} />;
}

/** A flow summed over the period, charted per UTC day against the period before (dashed). */
function SeriesCard({ title, series, overview, format }: { title: string; series: Series; overview: PlatformOverview; format: (value: number) => string }) {
  const figure = sum(series.current);
  const before = sum(series.previous);
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
        summary={`${title}: ${format(figure)} from ${labels[0]} to ${labels.at(-1)} (UTC days); previous period ${format(before)}.`}
      />
    </ChartCard>
  );
}

/** Volume per currency (never added across currencies) and payments per day, across every seller. */
export function PlatformCharts({ overview }: { overview: PlatformOverview }) {
  const currencies = Object.keys(overview.volume);
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {currencies.map((currency) => (
        <SeriesCard
          key={currency}
          title={`Volume (${currency})`}
          series={overview.volume[currency]!}
          overview={overview}
          format={(value) => formatMoney(value, currency)}
        />
      ))}
      <SeriesCard title="Payments" series={overview.payments} overview={overview} format={String} />
      {currencies.length === 0 ? <p className="self-center text-sm text-slate-600">No volume in this period yet.</p> : null}
    </div>
  );
}
