import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { baseUrl, call, client } from '../helpers/api';
import { unusedPort } from '../setup/server';
import {
  type DocBlock,
  SHELL,
  docFiles,
  extractBlocks,
  shellScript,
  statusesByBlock,
  typescriptModules,
  unrunnableProblem,
  withOrigin,
} from '../helpers/doc-examples';
import { eventually } from '../helpers/webhook-receiver';

/**
 * Every shell and TypeScript example of the README and docs runs as written against the real
 * server (docs/conventions.md, "Examples that run"). A reader runs them after `npm start` in the
 * repository: shell blocks run in a directory holding `.data/demo-api-key` (the demo key
 * `npm start` printed) and `logo.png` (a reader's logo), TypeScript programs with that key in
 * `KEY` and `PAYBASE_API_KEY`, as the pages ask. `localhost:3000` becomes the test server's origin.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FILES = docFiles(ROOT);
const BLOCKS = FILES.flatMap((file) => extractBlocks(ROOT, file));
const where = (block: DocBlock) => `${block.file}:${block.line}`;

/** A real 1×1 PNG, the reader's logo. */
const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const MODULES = typescriptModules(BLOCKS);
const moduleFile = (module: DocBlock[]) => `${module[0]!.file.replaceAll(/[/.]/g, '-')}-${module[0]!.line}.mts`;

let workDir: string;
let demoKey: string;

beforeAll(() => {
  demoKey = fs.readFileSync(path.join(inject('dataDir'), 'demo-api-key'), 'utf8').trim();
  fs.mkdirSync(path.join(ROOT, '.data-test'), { recursive: true });
  workDir = fs.mkdtempSync(path.join(ROOT, '.data-test', 'doc-examples-'));
  fs.mkdirSync(path.join(workDir, '.data'));
  fs.writeFileSync(path.join(workDir, '.data', 'demo-api-key'), demoKey);
  fs.writeFileSync(path.join(workDir, 'logo.png'), ONE_PIXEL_PNG);
  // `npm test` builds the SDK before the suite; a run of this file alone builds it if missing.
  if (!fs.existsSync(path.join(ROOT, 'packages/sdk/dist/index.js'))) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@paybase/sdk'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    if (build.status !== 0) throw new Error(`building the SDK failed:\n${build.stdout}${build.stderr}`);
  }
  writeTypescriptProject();
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('the examples in the README and docs', () => {
  it('are each run by this test or marked with why not', () => {
    const problems = BLOCKS.flatMap((block) => {
      const problem = unrunnableProblem(block);
      return problem ? [`${where(block)} ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  for (const file of FILES) {
    const blocks = BLOCKS.filter((block) => block.file === file && SHELL.has(block.lang) && block.marker?.kind !== 'not run');
    if (blocks.length === 0) continue;
    it(`${file}: the shell blocks run in order in one bash, every curl answering 2xx (or its marked status)`, () => {
      const run = spawnSync('bash', ['-c', shellScript(blocks, baseUrl())], {
        cwd: workDir,
        encoding: 'utf8',
        timeout: 90_000,
        env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: process.env.HOME },
      });
      const { statuses, lastBlock, finished } = statusesByBlock(run.stderr);
      const output = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(finished, `${blocks[lastBlock] ? where(blocks[lastBlock]) : file} stopped (exit ${run.status})\n${output}`).toBe(true);
      blocks.forEach((block, index) => {
        const expected = block.marker?.kind === 'answers' ? block.marker.status : undefined;
        for (const status of statuses.get(index) ?? []) {
          if (expected) expect(status, `${where(block)}\n${output}`).toBe(expected);
          else expect(status >= 200 && status < 300, `${where(block)} answered ${status}\n${output}`).toBe(true);
        }
      });
      const silent = blocks.filter((block, index) => block.code.includes('curl ') && (statuses.get(index) ?? []).length === 0);
      expect(silent.map(where), 'blocks whose curls reported no status').toEqual([]);
    });
  }

  it('TypeScript: every example compiles against the built SDK, strictly', () => {
    const check = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: workDir, encoding: 'utf8', timeout: 120_000 });
    const located = check.stdout.replaceAll(/^([\w-]+\.mts)\((\d+)/gm, (_, name: string, line: string) => {
      const module = MODULES.find((each) => moduleFile(each) === name);
      return `${name} [from ${module?.map(where).join(' + ')}] (line ${line}`;
    });
    expect(check.status, located).toBe(0);
  }, 150_000);

  for (const module of MODULES.filter((each) => each[0]!.marker?.kind !== 'receiver')) {
    it(`TypeScript ${module.map(where).join(' + ')} runs with tsx`, () => {
      const name = moduleFile(module);
      const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', 'tsconfig.json', name], {
        cwd: workDir,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, KEY: demoKey, PAYBASE_API_KEY: demoKey },
      });
      expect(run.status, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(0);
    }, 70_000);
  }

  for (const module of MODULES.filter((each) => each[0]!.marker?.kind === 'receiver')) {
    it(`TypeScript receiver ${module.map(where).join(' + ')} takes a real delivery (Test event) and refuses a forged one`, async () => {
      const port = await unusedPort();
      const api = client(demoKey);
      const endpoint = await api.post('/api/WebhookEndpoint', { url: `http://127.0.0.1:${port}/webhooks`, events: ['product.created'] });
      expect(endpoint.status).toBe(201);
      const receiver = startReceiverExample(moduleFile(module), { PORT: String(port), PAYBASE_WEBHOOK_SECRET: endpoint.body.signingSecret });
      try {
        const url = `http://127.0.0.1:${port}/webhooks`;
        // Listening: a request without a signature is refused.
        await eventually(
          async () => (await fetch(url, { method: 'POST', body: '{}' }).catch(() => undefined))?.status === 400,
          30_000,
          'the receiver to listen',
        );
        const forged = forgedDelivery();
        const refused = await fetch(url, { method: 'POST', headers: forged.headers, body: forged.body });
        expect(refused.status).toBe(400);

        const test = await api.post(`/api/WebhookEndpoint/${endpoint.body.id}/Test`, { type: 'product.created' }, { 'Idempotency-Key': crypto.randomUUID() });
        expect(test.status).toBe(202);
        await eventually(async () => receiver.output().includes(`received ${test.body.eventId} product.created`), 20_000, 'the delivery to be received');
        const delivery = await eventually(async () => {
          const answer = await api.get(`/api/WebhookDelivery/${test.body.id}`);
          return answer.body.status === 'pending' ? undefined : answer.body;
        });
        expect(delivery.status).toBe('delivered');
        expect(receiver.output()).not.toContain(forged.id);
      } finally {
        await receiver.stop();
        expect((await call('DELETE', `/api/WebhookEndpoint/${endpoint.body.id}`, { key: demoKey })).status).toBe(200);
      }
    }, 90_000);
  }
});

function startReceiverExample(file: string, env: Record<string, string>) {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', 'tsconfig.json', file], { cwd: workDir, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A delivery with both documented signature headers, made with a secret that is not the endpoint's. */
function forgedDelivery() {
  const id = `evt_forged${crypto.randomBytes(8).toString('hex')}`;
  const body = JSON.stringify({ id, type: 'product.created', sequence: 1, createdAt: new Date().toISOString(), data: { object: {} } });
  const secret = crypto.randomBytes(24);
  const t = Math.floor(Date.now() / 1000);
  const hex = crypto
    .createHmac('sha256', `whsec_${secret.toString('base64')}`)
    .update(`${t}.${body}`)
    .digest('hex');
  const base64 = crypto.createHmac('sha256', secret).update(`${id}.${t}.${body}`).digest('base64');
  const headers = {
    'content-type': 'application/json',
    'x-service-signature': `t=${t},v1=${hex}`,
    'webhook-id': id,
    'webhook-timestamp': String(t),
    'webhook-signature': `v1,${base64}`,
  };
  return { id, body, headers };
}

/**
 * Each TypeScript module in its own file under the repository, so `@paybase/sdk` resolves as it
 * does for a reader there (the workspace's built package), and a strict project holding them.
 */
function writeTypescriptProject() {
  const files = MODULES.map((module) => {
    const name = moduleFile(module);
    fs.writeFileSync(path.join(workDir, name), module.map((block) => withOrigin(block.code, baseUrl())).join('\n'));
    return name;
  });
  const compilerOptions = {
    target: 'ES2022',
    lib: ['dom', 'ES2023'],
    module: 'esnext',
    moduleResolution: 'bundler',
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  fs.writeFileSync(path.join(workDir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
}
