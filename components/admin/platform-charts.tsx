import { formatMoney } from '@/lib/money/format';
import type { PlatformOverview } from '@/lib/operator/platform-overview';
import { PLATFORM_RANGES, type PlatformRange } from '@/lib/operator/platform-overview';
import { RangePicker, SeriesCard } from '@/components/console/overview/overview-charts';

export function PlatformRangePicker({ range }: { range: PlatformRange }) {
  return <RangePicker range={range} path="/admin/overview" keys={PLATFORM_RANGES} />;
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
          buckets=" (UTC days)"
        />
      ))}
      <SeriesCard title="Payments" series={overview.payments} overview={overview} format={String} buckets=" (UTC days)" />
      {currencies.length === 0 ? <p className="self-center text-sm text-slate-600">No volume in this period yet.</p> : null}
    </div>
  );
}
