import { LineChart } from '@/components/charts/line-chart';
import type { FeatureUsageHistory } from '@/lib/usage/usage-history';

const dayLabel = (key: string) => new Date(`${key}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const units = (value: number) => value.toLocaleString('en-US');
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Per feature, units per day this period (solid, up to today) against the period before it
 * (dashed, the same number of days), with the figures as a table for those who cannot see it.
 */
export function UsageHistoryCharts({ history }: { history: FeatureUsageHistory[] }) {
  if (history.length === 0) return null;
  return (
    <section aria-labelledby="usage-history-heading" className="mt-4">
      <h3 id="usage-history-heading" className="text-sm font-semibold">
        Usage by day
      </h3>
      <p className="text-xs text-slate-600">This period against the one before (UTC days; a feature that does not reset: the last 30 days).</p>
      <div className="mt-2 grid gap-4 lg:grid-cols-2">
        {history.map((feature) => {
          const labels = feature.days.map(dayLabel);
          const previousLabels = feature.previousDays.map(dayLabel);
          const total = sum(feature.current);
          const before = sum(feature.previous);
          const title = `${feature.feature} per day`;
          return (
            <figure key={feature.feature} className="min-w-0" data-feature-history={feature.feature}>
              <figcaption className="mb-1 flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
                <span className="font-medium">{feature.feature}</span>
                <span className="text-xs text-slate-600">
                  {units(total)} so far · {units(before)} in the previous period
                </span>
              </figcaption>
              {total === 0 && before === 0 ? (
                <p className="rounded border border-dashed border-slate-200 px-3 py-4 text-center text-xs text-slate-600">No usage in these two periods.</p>
              ) : (
                <LineChart
                  title={title}
                  labels={labels}
                  previousLabels={previousLabels}
                  current={feature.current}
                  previous={feature.previous}
                  format={units}
                  summary={`${feature.feature}: ${units(total)} units from ${labels[0]} to ${labels[feature.current.length - 1] ?? labels[0]}; ${units(before)} from ${previousLabels[0]} to ${previousLabels.at(-1)}.`}
                />
              )}
            </figure>
          );
        })}
      </div>
    </section>
  );
}
