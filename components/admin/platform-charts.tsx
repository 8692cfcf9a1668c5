import Link from 'next/link';
import { LineChart } from '@/components/charts/line-chart';
import { formatMoney } from '@/lib/money/format';
import type { PlatformOverview } from '@/lib/operator/platform-overview';
import { PLATFORM_RANGES, type PlatformRange } from '@/lib/operator/platform-overview';
import type { Series } from '@/lib/reports/overview';
import { bucketLabel, changeLabel, REPORT_RANGES } from '@/lib/reports/range';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function PlatformRangePicker({ range }: { range: PlatformRange }) {
  return (
    <nav aria-label="Range" className="flex flex-wrap gap-1 rounded-md border border-slate-200 bg-white p-1 shadow-sm">
      {PLATFORM_RANGES.map((key) => (
        <Link
          key={key}
          href={`/admin/overview?range=${key}`}
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

/** A flow summed over the period, charted per UTC day against the period before (dashed). */
function SeriesCard({ title, series, overview, format }: { title: string; series: Series; overview: PlatformOverview; format: (value: number) => string }) {
  const figure = sum(series.current);
  const before = sum(series.previous);
  const labels = overview.keys.map(bucketLabel);
  return (
    <section aria-label={title} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-sm font-medium text-slate-600">{title}</h2>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <span className="text-2xl font-semibold text-slate-900 tabular-nums">{format(figure)}</span>
        <span className="text-xs text-slate-600">{changeLabel(figure, before)} vs previous period</span>
      </p>
      <div className="mt-3">
        <LineChart
          title={title}
          labels={labels}
          previousLabels={overview.previousKeys.map(bucketLabel)}
          current={series.current}
          previous={series.previous}
          format={format}
          summary={`${title}: ${format(figure)} from ${labels[0]} to ${labels.at(-1)} (UTC days); previous period ${format(before)}.`}
        />
      </div>
    </section>
  );
}

/** Volume per currency (never added across currencies) and payments per day, across every seller. */
export function PlatformCharts({ overview }: { overview: PlatformOverview }) {
  const currencies = Object.keys(overview.volume);
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {currencies.map((currency) => (
        <SeriesCard key={currency} title={`Volume (${currency})`} series={overview.volume[currency]!} overview={overview} format={(value) => formatMoney(value, currency)} />
      ))}
      <SeriesCard title="Payments" series={overview.payments} overview={overview} format={String} />
      {currencies.length === 0 ? <p className="self-center text-sm text-slate-600">No volume in this period yet.</p> : null}
    </div>
  );
}
