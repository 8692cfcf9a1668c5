import { useId } from 'react';
import { ScrollRegion } from '../ui/scroll-region';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { top: 6, right: 2, bottom: 4, left: 2 };

/**
 * A line chart drawn on the server as SVG: the chosen period as a solid line, the period before
 * it dashed. The SVG is one image with a text summary; the figures are in the table below it
 * (`<details>`), so nothing is only visible as a shape. `current` may stop before the last label
 * (a period still running): its line ends there and the table shows "—" for the days to come.
 */
export function LineChart({
  title,
  labels,
  previousLabels,
  current,
  previous,
  format,
  summary,
}: {
  title: string;
  labels: string[];
  previousLabels: string[];
  current: number[];
  previous: number[];
  format: (value: number) => string;
  summary: string;
}) {
  const id = useId();
  const values = [...current, ...previous];
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (labels.length > 1 ? (i / (labels.length - 1)) * innerWidth : innerWidth / 2);
  const y = (value: number) => PAD.top + innerHeight - ((value - min) / span) * innerHeight;
  const path = (series: number[]) => series.map((value, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  const area = `${path(current)} L${x(current.length - 1).toFixed(1)},${y(min).toFixed(1)} L${x(0).toFixed(1)},${y(min).toFixed(1)} Z`;
  return (
    <div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        className="h-auto w-full"
        preserveAspectRatio="none"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(min)} y2={y(min)} className="stroke-slate-200" strokeWidth={1} />
        {max > 0 ? <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(max)} y2={y(max)} className="stroke-slate-100" strokeWidth={1} /> : null}
        <path d={area} className="fill-brand-50" />
        <path d={path(previous)} fill="none" className="stroke-slate-400" strokeWidth={1.5} strokeDasharray="4 4" />
        <path d={path(current)} fill="none" className="stroke-brand-600" strokeWidth={2} />
        {current.length > 0 && current.length < labels.length ? (
          // Today's point, as a round cap on a zero-length line so stretching the chart keeps it round.
          <path
            d={`M${x(current.length - 1).toFixed(1)},${y(current.at(-1)!).toFixed(1)} h0`}
            className="stroke-brand-600"
            strokeWidth={6}
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          />
        ) : null}
      </svg>
      {/* Axis labels are HTML, not SVG text, so they keep their size when the chart is stretched. */}
      <div aria-hidden="true" className="-mt-1 flex justify-between text-[11px] text-slate-500">
        <span>{labels[0]}</span>
        <span>peak {format(max)}</span>
        <span>{labels.at(-1)}</span>
      </div>
      <div className="mt-1 flex flex-wrap gap-x-4 text-xs text-slate-600">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-0.5 w-4 bg-brand-600 align-middle" />
          This period
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block w-4 border-t-2 border-dashed border-slate-400 align-middle" />
          Previous period
        </span>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-brand-700">Show figures as a table</summary>
        <ScrollRegion label={`${title} by period`} className="mt-2 max-h-64 overflow-auto">
          <table className="min-w-full text-left text-xs">
            <caption className="sr-only">{title} by period</caption>
            <thead>
              <tr className="text-slate-600">
                <th scope="col" className="py-1 pr-3 font-medium">
                  Period
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {title}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Previous period
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Previous
                </th>
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-3 font-normal whitespace-nowrap">
                    {label}
                  </th>
                  <td className="py-1 pr-3 text-right whitespace-nowrap tabular-nums">{i < current.length ? format(current[i]!) : '—'}</td>
                  <td className="py-1 pr-3 whitespace-nowrap text-slate-600">{previousLabels[i]}</td>
                  <td className="py-1 text-right whitespace-nowrap text-slate-600 tabular-nums">{format(previous[i] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </div>
  );
}

/** Shares of a whole as one horizontal bar, with the counts written out beside it. */
export function ShareBar({ title, parts }: { title: string; parts: { label: string; value: number; className: string }[] }) {
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  return (
    <div>
      <div
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-100"
        role="img"
        aria-label={`${title}: ${parts.map((p) => `${p.label} ${p.value}`).join(', ')}`}
      >
        {total > 0 ? parts.map((part) => <span key={part.label} className={part.className} style={{ width: `${(part.value / total) * 100}%` }} />) : null}
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {parts.map((part) => (
          <li key={part.label}>
            <span aria-hidden="true" className={`mr-1 inline-block h-2 w-2 rounded-full align-middle ${part.className}`} />
            {part.label} <span className="font-medium tabular-nums">{part.value}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
