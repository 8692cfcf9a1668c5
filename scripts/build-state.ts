import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { nextBuildEnvironment } from '../lib/config';

const INPUT_DIRS = ['app', 'lib', 'components', 'public', 'messages', 'types'];
const INPUT_FILES = ['next.config.mjs', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];
const STAMP = path.join('.next', 'paybase-source-hash');
const RELEASE = path.join('.next', 'paybase-release');

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
  return fs.existsSync(path.join('.next', 'BUILD_ID')) && fs.existsSync(RELEASE) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === sourceHash();
}

/**
 * Runs `next build` unless the last build was made from the same sources. `production`: a
 * production start never builds (each machine would make a build of its own, and pages of one
 * would post to another's server actions): without a current build it stops, asking for
 * `npm run build`.
 */
export function buildIfNeeded(options: { force?: boolean; production?: boolean } = {}): void {
  if (!options.force && isBuildCurrent()) return;
  if (options.production) {
    throw new Error(
      fs.existsSync(path.join('.next', 'BUILD_ID'))
        ? 'The build in .next was not made from these sources. Under APP_ENV=production `npm start` does not build: run `npm run build` once per release and ship the same .next to every machine.'
        : 'There is no build in .next. Under APP_ENV=production `npm start` does not build: run `npm run build` once per release and ship the same .next to every machine.',
    );
  }
  const hash = sourceHash();
  const environment = nextBuildEnvironment(`paybase-${hash.slice(0, 16)}`);
  console.log(`Building the web app (next build), release ${environment.NEXT_DEPLOYMENT_ID}…`);
  const result = spawnSync(process.execPath, [path.join('node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { stdio: 'inherit', env: environment });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  fs.writeFileSync(STAMP, hash);
  fs.writeFileSync(RELEASE, environment.NEXT_DEPLOYMENT_ID!);
}

/** The release the build in .next was made as. */
export function builtRelease(): string {
  return fs.readFileSync(RELEASE, 'utf8');
}
