import fs from 'node:fs';
import path from 'node:path';

/**
 * The code examples of the README and docs, as a reader finds them: every fenced block with its
 * language, its place and the `<!-- example: … -->` marker on the line before its fence, if any
 * (docs/conventions.md, "Examples that run").
 */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  marker: Marker | undefined;
}

export type Marker =
  /** The test does not run it; the reason is said in the marker. */
  | { kind: 'not run'; reason: string }
  /** A shell block showing an error: every curl in it answers this status. */
  | { kind: 'answers'; status: number }
  /** A TypeScript block that goes on in the module of the block before it on the page. */
  | { kind: 'continues' }
  /**
   * A TypeScript webhook receiver listening on `PORT`, verifying with `PAYBASE_WEBHOOK_SECRET`: it
   * must answer a real delivery 2xx, printing the event's id, and a forged one 4xx.
   */
  | { kind: 'receiver' };

export const SHELL = new Set(['sh', 'bash', 'shell']);
export const TYPESCRIPT = new Set(['ts', 'typescript', 'js', 'javascript']);
/** Examples in languages the test does not run: each carries a `not run` marker saying why. */
export const OTHER_PROGRAMS = new Set(['python', 'go']);

export function docFiles(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs, 'packages/sdk/README.md'];
}

const FENCE = /^(\s*)```(\S*)\s*$/;
const MARKER = /^\s*<!-- example: (.*?) -->\s*$/;

export function extractBlocks(root: string, file: string): DocBlock[] {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = index;
    const body: string[] = [];
    while (++index < lines.length && !/^\s*```\s*$/.test(lines[index]!)) body.push(lines[index]!.slice(indent));
    const before = lines.slice(0, start).findLast((line) => line.trim() !== '');
    const marked = before ? MARKER.exec(before) : null;
    blocks.push({ file, line: start + 1, lang: open[2]!, code: `${body.join('\n')}\n`, marker: marked ? parseMarker(marked[1]!, file, start) : undefined });
  }
  return blocks;
}

function parseMarker(text: string, file: string, index: number): Marker {
  const notRun = /^not run \((.+)\)$/.exec(text);
  if (notRun) return { kind: 'not run', reason: notRun[1]! };
  const answers = /^answers (\d{3})\b/.exec(text);
  if (answers) return { kind: 'answers', status: Number(answers[1]) };
  if (text === 'continues') return { kind: 'continues' };
  if (text === 'receiver') return { kind: 'receiver' };
  throw new Error(`${file}:${index}: unknown example marker "${text}" (docs/conventions.md, "Examples that run")`);
}

/** What is wrong with a block for the rule "every example runs or says why not", if anything. */
export function unrunnableProblem(block: DocBlock): string | undefined {
  if (block.lang === '') return 'has no language after its fence (use `text` for output)';
  const runnable = SHELL.has(block.lang) || TYPESCRIPT.has(block.lang);
  if (block.marker?.kind === 'not run') return runnable || OTHER_PROGRAMS.has(block.lang) ? undefined : 'is marked not run but is not an example';
  if (OTHER_PROGRAMS.has(block.lang)) return `is ${block.lang}, which this test does not run: mark it <!-- example: not run (why) -->`;
  if (block.marker?.kind === 'answers' && !SHELL.has(block.lang)) return 'is marked with an answer status but is not a shell block';
  if ((block.marker?.kind === 'continues' || block.marker?.kind === 'receiver') && !TYPESCRIPT.has(block.lang))
    return `is marked ${block.marker.kind} but is not TypeScript`;
  return undefined;
}

/** TypeScript modules as a reader assembles them: a block, then the blocks that continue it. */
export function typescriptModules(blocks: DocBlock[]): DocBlock[][] {
  const modules: DocBlock[][] = [];
  for (const block of blocks) {
    if (!TYPESCRIPT.has(block.lang) || block.marker?.kind === 'not run') continue;
    const previous = modules.at(-1);
    if (block.marker?.kind === 'continues') {
      if (!previous || previous[0]!.file !== block.file) throw new Error(`${block.file}:${block.line} continues no TypeScript block`);
      previous.push(block);
    } else modules.push([block]);
  }
  return modules;
}

/**
 * One bash script for a page's shell blocks, in order, as a reader pastes them into one terminal:
 * strict mode, and `curl` reporting each answer's status on stderr after the block's marker.
 */
export function shellScript(blocks: DocBlock[], origin: string): string {
  const parts = [
    'set -euo pipefail',
    `curl() { command curl "$@" --write-out '%{stderr}\\n::status %{http_code}\\n'; }`,
    ...blocks.map((block, index) => `printf '::block ${index}\\n' >&2\n${withOrigin(block.code, origin)}`),
    `printf '::done\\n' >&2`,
  ];
  return `${parts.join('\n')}\n`;
}

/** The docs talk to `localhost:3000`, where `npm start` serves; the test's server is elsewhere. */
export function withOrigin(code: string, origin: string): string {
  return code.replaceAll('localhost:3000', new URL(origin).host);
}

/** Per block of a script's run: the statuses its curls answered; `finished`: the script ran to its end. */
export function statusesByBlock(stderr: string): { statuses: Map<number, number[]>; lastBlock: number; finished: boolean } {
  const statuses = new Map<number, number[]>();
  let lastBlock = -1;
  let finished = false;
  for (const line of stderr.split('\n')) {
    const block = /^::block (\d+)$/.exec(line);
    if (block) {
      lastBlock = Number(block[1]);
      statuses.set(lastBlock, []);
    }
    const status = /^::status (\d{3})$/.exec(line);
    if (status) statuses.get(lastBlock)?.push(Number(status[1]));
    if (line === '::done') finished = true;
  }
  return { statuses, lastBlock, finished };
}
