/**
 * The webhook benchmark's rows (bench/run.ts) and how they are written to bench/RESULTS.md:
 * one section per run, with the machine, the date, the commit, the load average and the dispatcher
 * settings, and the run's table in "Current figures".
 */
import { percentile } from './common';
import { finishedRun, markdownTable, recordRun, runLines } from './results-file';

export interface Row {
  name: string;
  deliveries: number;
  seconds: number;
  p50: number;
  p99: number;
  duplicates: number;
  note?: string;
}

/** Each process's CPU time over a scenario, as a share of one core. */
export function cpuShares(before: Record<string, number>, after: Record<string, number>, wallSeconds: number): string {
  return Object.keys(after)
    .map((name) => `${name} ${(((after[name]! - (before[name] ?? 0)) / wallSeconds) * 100).toFixed(0)} %`)
    .join(', ');
}

/** A scenario's row from its sorted commit → arrival latencies. */
export function latencyRow(name: string, latencies: number[], seconds: number, duplicates: number, note: string): Row {
  return { name, deliveries: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), duplicates, note };
}

/** Writes the run to bench/RESULTS.md (its section, and its table in "Current figures") and prints it. */
export function writeResults(rows: Row[], loadAtStart: number[], settings: { endpointConcurrency: number; maxInFlight: number; timeoutMs: number }) {
  const run = finishedRun(loadAtStart);
  const columns = ['scenario', 'deliveries', 'seconds', 'deliveries/s', '→ first arrival p50', 'p99', 'repeats'];
  const cells = rows.map((r) => [
    r.name,
    String(r.deliveries),
    r.seconds.toFixed(2),
    (r.deliveries / r.seconds).toFixed(0),
    `${r.p50} ms`,
    `${r.p99} ms`,
    String(r.duplicates),
  ]);
  const lines = [
    '',
    `## ${run.date}`,
    '',
    ...runLines(run),
    `Settings: WEBHOOK_ENDPOINT_CONCURRENCY=${settings.endpointConcurrency}, WEBHOOK_MAX_IN_FLIGHT=${settings.maxInFlight}, WEBHOOK_TIMEOUT_MS=${settings.timeoutMs}.`,
    '',
    ...markdownTable(
      [...columns, 'notes'],
      rows.map((r, index) => [...cells[index]!, r.note ?? '']),
      ['notes'],
    ),
    '',
  ];
  console.log(lines.join('\n'));
  recordRun(run, lines, {
    benchmark: 'webhooks',
    title: 'Webhook delivery (`npm run bench`)',
    about: `Bursts: deliveries committed in one transaction, the rate and latency from the commit to each first arrival; steady: events created through the API, latency from each event's commit. WEBHOOK_ENDPOINT_CONCURRENCY=${settings.endpointConcurrency}, WEBHOOK_MAX_IN_FLIGHT=${settings.maxInFlight}, WEBHOOK_TIMEOUT_MS=${settings.timeoutMs}; CPU shares and the notes are in the run's section.`,
    columns,
    rows: cells,
  });
}
