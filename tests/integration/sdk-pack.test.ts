import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, CURRENT_API_VERSION } from '@/lib/http/api-versions';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';

const run = promisify(execFile);
const repository = path.resolve('.');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paybase-sdk-pack-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * The lockfile entries of the SDK's dependencies, as this repository installed them: the
 * temporary project installs them from npm's cache (this machine is offline) at the versions
 * the SDK is tested with; with a registry, `npm install <tarball>` alone resolves them.
 */
function dependencyLock(sdkDependencies: Record<string, string>) {
  const root = JSON.parse(fs.readFileSync(path.join(repository, 'package-lock.json'), 'utf8')).packages as Record<string, Record<string, unknown>>;
  const packages: Record<string, unknown> = {};
  const pending = Object.keys(sdkDependencies);
  while (pending.length) {
    const name = pending.pop()!;
    const entry = root[`node_modules/${name}`]!;
    packages[`node_modules/${name}`] = { ...entry, resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
    pending.push(...Object.keys((entry.dependencies as Record<string, string> | undefined) ?? {}));
  }
  const dependencies = Object.fromEntries(Object.keys(sdkDependencies).map((name) => [name, String(root[`node_modules/${name}`]!.version)]));
  return { dependencies, packages };
}

const SCRIPT = `import { API_VERSION, Paybase, isPaybaseError } from '@paybase/sdk';

const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];
const paybase = new Paybase({ baseUrl, apiKey });
const product = await paybase.post('/api/Product', { body: { name: 'Packed' } });
const refused = await paybase
  .get('/api/Product/{productId}', { params: { path: { productId: product.id }, header: { 'Paybase-Version': '1999-01-01' } } })
  .catch((error: unknown) => error);
const knownVersions = isPaybaseError(refused) && refused.code === 'VALIDATION_FAILED' ? refused.extra.knownVersions : undefined;
console.log(JSON.stringify({ apiVersion: API_VERSION, product: product.name, knownVersions }));

export async function typesAreChecked() {
  // @ts-expect-error a product needs a name: the packed types say so
  await paybase.post('/api/Product', { body: {} });
}
`;

describe('npm pack in packages/sdk', () => {
  it('gives a tarball with types that installs outside the monorepo and runs against the server', { timeout: 300_000 }, async () => {
    const sdk = path.join(repository, 'packages/sdk');
    const { stdout: packed } = await run('npm', ['pack', '--pack-destination', work, '--json'], { cwd: sdk });
    const [tarball] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    const files = tarball!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'README.md', 'LICENSE', 'package.json']));
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([]);

    const project = path.join(work, 'project');
    fs.mkdirSync(project);
    const manifest = JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const { dependencies, packages } = dependencyLock(manifest.dependencies);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module', dependencies }));
    fs.writeFileSync(
      path.join(project, 'package-lock.json'),
      JSON.stringify({ name: 'integrator', lockfileVersion: 3, requires: true, packages: { '': { name: 'integrator', dependencies }, ...packages } }),
    );
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, tarball!.filename)], { cwd: project });
    expect(fs.existsSync(path.join(project, 'node_modules/@paybase/sdk/dist/index.d.ts'))).toBe(true);

    fs.writeFileSync(path.join(project, 'script.ts'), SCRIPT);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          // Node's own types, as an integrator's project has them; nothing else from the monorepo.
          typeRoots: [path.join(repository, 'node_modules/@types')],
          types: ['node'],
        },
        include: ['script.ts'],
      }),
    );
    await run(process.execPath, [path.join(repository, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: project });

    const { key } = await newMerchant();
    const { stdout } = await run(process.execPath, ['out/script.js', baseUrl(), key], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ apiVersion: CURRENT_API_VERSION, product: 'Packed', knownVersions: API_VERSIONS.map((version) => version.name) });
  });
});
