/**
 * The webhook benchmark's rows (bench/run.ts) and how they are written to bench/RESULTS.md:
 * one table per run, with the machine, the date, the load average and the dispatcher settings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './common';

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

/** Appends the run's table to bench/RESULTS.md and prints it. */
export function writeResults(rows: Row[], loadAtStart: number[], settings: { endpointConcurrency: number; maxInFlight: number; timeoutMs: number }) {
  const file = path.join(import.meta.dirname, 'RESULTS.md');
  const cpu = os.cpus();
  const load = (values: number[]) => values.map((l) => l.toFixed(1)).join(' / ');
  const lines = [
    '',
    `## ${new Date().toISOString()}`,
    '',
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; load average (1/5/15 min) at the start ${load(loadAtStart)}, at the end ${load(os.loadavg())}.`,
    `Settings: WEBHOOK_ENDPOINT_CONCURRENCY=${settings.endpointConcurrency}, WEBHOOK_MAX_IN_FLIGHT=${settings.maxInFlight}, WEBHOOK_TIMEOUT_MS=${settings.timeoutMs}.`,
    '',
    '| scenario | deliveries | seconds | deliveries/s | → first arrival p50 | p99 | repeats | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.deliveries} | ${r.seconds.toFixed(2)} | ${(r.deliveries / r.seconds).toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${r.duplicates} | ${r.note ?? ''} |`,
    ),
    '',
  ];
  fs.appendFileSync(file, lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(`results appended to ${file}`);
}
