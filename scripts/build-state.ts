import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const INPUT_DIRS = ['app', 'lib', 'components', 'public'];
const INPUT_FILES = ['next.config.mjs', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];
const STAMP = path.join('.next', 'paybase-source-hash');

function* walk(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** A hash of everything the Next.js build reads, so a start rebuilds exactly when sources changed. */
export function sourceHash(): string {
  const hash = crypto.createHash('sha256');
  const files = [...INPUT_DIRS.flatMap((dir) => [...walk(dir)]), ...INPUT_FILES.filter((f) => fs.existsSync(f))].sort();
  for (const file of files) {
    hash.update(file).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function isBuildCurrent(): boolean {
  return fs.existsSync(path.join('.next', 'BUILD_ID')) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === sourceHash();
}

/** Runs `next build` unless the last build was made from the same sources. */
export function buildIfNeeded(options: { force?: boolean } = {}): void {
  if (!options.force && isBuildCurrent()) return;
  const hash = sourceHash();
  console.log('Building the web app (next build)…');
  const result = spawnSync(process.execPath, [path.join('node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  fs.writeFileSync(STAMP, hash);
}
