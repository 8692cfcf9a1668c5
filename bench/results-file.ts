/**
 * bench/RESULTS.md: an intro, "Current figures" with one table per benchmark between
 * `<!-- current:NAME -->` and `<!-- /current:NAME -->`, then "History (oldest first)" where
 * every run's section is appended. A run replaces its benchmark's table and appends its section.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RESULTS_FILE = path.join(import.meta.dirname, 'RESULTS.md');
export const HISTORY_HEADING = '## History (oldest first)';

/** What a run measured on, for its section and its table in "Current figures". */
export interface Run {
  /** When the results were written (ISO 8601). */
  date: string;
  /** The measured code: the short commit, and whether the work tree differed from it. */
  commit: string;
  /** CPUs, memory, kernel and Node. */
  machine: string;
  /** The load average while it ran ("load average at the end 2.1 / 3.0 / 2.4"). */
  load: string;
  /** The BENCH_* variables set for the run, e.g. "BENCH_PAYMENTS=20000", or "" for the defaults. */
  settings: string;
}

/** A benchmark's table in "Current figures". */
export interface CurrentTable {
  /** As in `npm run bench -- NAME`; "webhooks" for `npm run bench` alone. */
  benchmark: string;
  /** A heading naming what is measured and the command. */
  title: string;
  /** How the figures were taken, in a sentence. */
  about: string;
  columns: string[];
  rows: string[][];
}

/** The run that is writing its results now. */
export function finishedRun(loadAtStart?: number[]): Run {
  const cpu = os.cpus();
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ');
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join(' ');
  return {
    date: new Date().toISOString(),
    commit: measuredCommit(),
    machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
    load: loadAtStart
      ? `load average (1/5/15 min) at the start ${load(loadAtStart)}, at the end ${load(os.loadavg())}`
      : `load average at the end ${load(os.loadavg())}`,
    settings,
  };
}

function measuredCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
  try {
    const changed = git('status', '--porcelain', '--', ':/', ':(top,exclude)bench/RESULTS.md');
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (not a git work tree)';
  }
}

/** The run's lines for its section: machine and load, commit, and the settings if any. */
export function runLines(run: Run): string[] {
  return [`Machine: ${run.machine}; ${run.load}.`, `Commit: ${run.commit}.${run.settings ? ` Run with ${run.settings}.` : ''}`];
}

/** A run's section when it is one table: its heading, what was measured, the machine and commit, the table. */
export function tableSection(heading: string, method: string, run: Run, columns: string[], rows: string[][]): string[] {
  return ['', `## ${heading}: ${run.date}`, '', method, '', ...runLines(run), '', ...markdownTable(columns, rows), ''];
}

/** A Markdown table: the first column (and any named in `leftAligned`) left-aligned, the others right-aligned. */
export function markdownTable(columns: string[], rows: string[][], leftAligned: string[] = []): string[] {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const alignment = columns.map((column, index) => (index === 0 || leftAligned.includes(column) ? '---' : '---:'));
  return [line(columns), `|${alignment.join('|')}|`, ...rows.map(line)];
}

/** The block of "Current figures" for one benchmark, markers included. */
export function currentBlock(table: CurrentTable, run: Run): string {
  return [
    `<!-- current:${table.benchmark} -->`,
    `### ${table.title}`,
    '',
    `Measured ${run.date} at commit ${run.commit} on ${run.machine}; ${run.load}.${run.settings ? ` Run with ${run.settings}.` : ''}`,
    table.about,
    '',
    ...markdownTable(table.columns, table.rows),
    '',
    `<!-- /current:${table.benchmark} -->`,
  ].join('\n');
}

/**
 * The document with `block` in place of the benchmark's block in "Current figures", or appended
 * at the end of that part when the benchmark has none yet; everything else unchanged.
 */
export function replaceCurrentBlock(document: string, benchmark: string, block: string): string {
  const history = document.indexOf(`\n${HISTORY_HEADING}\n`);
  if (history < 0) throw new Error(`no "${HISTORY_HEADING}" heading in the results file`);
  const start = document.indexOf(`<!-- current:${benchmark} -->`);
  if (start < 0 || start > history) return `${document.slice(0, history + 1)}${block}\n\n${document.slice(history + 1)}`;
  const endMarker = `<!-- /current:${benchmark} -->`;
  const end = document.indexOf(endMarker, start);
  if (end < 0 || end > history) throw new Error(`the block of ${benchmark} in "Current figures" has no end marker`);
  return `${document.slice(0, start)}${block}${document.slice(end + endMarker.length)}`;
}

/**
 * Writes a run to bench/RESULTS.md: its section appended to the history, its table in place in
 * "Current figures". A profiled run (BENCH_PROFILE) writes nothing, its figures are not a
 * measurement; a run of some scenarios only (BENCH_ONLY) appends its section and leaves the
 * current table to the last full run.
 */
export function recordRun(run: Run, section: string[], current: CurrentTable): void {
  if (process.env.BENCH_PROFILE) {
    console.log(`profiled run (BENCH_PROFILE): results not written to ${RESULTS_FILE}`);
    return;
  }
  const document = fs.readFileSync(RESULTS_FILE, 'utf8');
  const updated = process.env.BENCH_ONLY ? document : replaceCurrentBlock(document, current.benchmark, currentBlock(current, run));
  fs.writeFileSync(RESULTS_FILE, updated + section.join('\n'));
  console.log(
    process.env.BENCH_ONLY
      ? `results appended to ${RESULTS_FILE}; "Current figures" unchanged (BENCH_ONLY: a part of the benchmark)`
      : `results appended to ${RESULTS_FILE} and its "Current figures" for ${current.benchmark} replaced`,
  );
}
