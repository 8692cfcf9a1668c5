import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The container image and compose file (docs/operations.md, "Containers") cannot be built on
 * the test machines; what they run is tested elsewhere. Checked here: they call those same
 * scripts (no command of their own), and a production start refuses to build.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const npmScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The script file a command runs: `node --import tsx scripts/x.ts` or `npm run x` (through package.json). */
function scriptOf(command: string[]): string {
  if (command[0] === 'node') {
    expect(command.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
    return command[3]!;
  }
  expect(command.slice(0, 2)).toEqual(['npm', 'run']);
  const script = npmScripts[command[2]!];
  expect(script, `npm run ${command[2]}`).toBeDefined();
  return /scripts\/\S+\.ts/.exec(script!)![0];
}

describe('the container image and the compose file', () => {
  it('run the scripts npm and CI run, from one image built with npm run build', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain('RUN npm install --no-audit --no-fund');
    expect(dockerfile).toContain('RUN npm run build');
    expect(npmScripts.build).toContain('scripts/build.ts');
    expect(dockerfile).toMatch(/^USER paybase$/m);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(scriptOf(cmd)).toBe('scripts/start.ts');
    expect(npmScripts.start).toBe('tsx scripts/start.ts');

    const compose = parse(read('compose.yaml'), { merge: true }) as {
      services: Record<string, { command?: string[]; image?: string; build?: string; environment?: Record<string, string> }>;
    };
    const ran = Object.fromEntries(
      Object.entries(compose.services)
        .filter(([, service]) => service.command)
        .map(([name, service]) => [name, scriptOf(service.command!)]),
    );
    expect(ran).toEqual({ migrate: 'scripts/migrate.ts', web: 'scripts/start.ts', worker: 'scripts/worker.ts' });
    for (const script of Object.values(ran)) expect(fs.existsSync(path.join(ROOT, script))).toBe(true);
    expect(npmScripts.migrate).toBe('tsx scripts/migrate.ts');
    expect(npmScripts.worker).toBe('tsx scripts/worker.ts');
    for (const name of ['migrate', 'web', 'worker']) {
      const service = compose.services[name]!;
      expect(service.image).toBe('paybase:latest');
      expect(service.build).toBe('.');
      expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining(['DATABASE_URL', 'SECRET_KEY', 'PUBLIC_URL']));
    }
    expect(compose.services.web!.environment!.RUN_WORKER).toBe('false');
  });
});

describe('npm start under APP_ENV=production', () => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const buildState = pathToFileURL(path.join(ROOT, 'scripts/build-state.ts')).href;
  /** buildIfNeeded as scripts/start.ts calls it in production, in a directory of its own. */
  const startIn = (directory: string) =>
    spawnSync(process.execPath, ['--import', tsx, '-e', `import(${JSON.stringify(buildState)}).then((m) => m.buildIfNeeded({ production: true }))`], {
      cwd: directory,
      encoding: 'utf8',
    });

  it('stops, asking for npm run build, when there is no build or it was made from other sources', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'paybase-release-'));
    try {
      const none = startIn(directory);
      expect(none.status).not.toBe(0);
      expect(none.stderr).toContain('There is no build in .next. Under APP_ENV=production `npm start` does not build: run `npm run build`');
      fs.mkdirSync(path.join(directory, '.next'));
      for (const file of ['BUILD_ID', 'paybase-release', 'paybase-source-hash']) fs.writeFileSync(path.join(directory, '.next', file), 'another release');
      const stale = startIn(directory);
      expect(stale.status).not.toBe(0);
      expect(stale.stderr).toContain('The build in .next was not made from these sources');
      expect(fs.existsSync(path.join(directory, 'node_modules'))).toBe(false);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
