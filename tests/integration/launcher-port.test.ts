import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/webhook-receiver';
import { type Launch, launch, unusedPort } from '../setup/server';

/**
 * `npm start` takes its port before it starts anything (docs/operations.md, "Processes", "Starting"): a busy
 * port stops it at once with nothing left running, and requests that arrive while the database
 * and Next.js start are asked to come back.
 */
const launches: Launch[] = [];

afterEach(async () => {
  await Promise.all(launches.splice(0).map((started) => started.stop()));
}, 120_000);

function startLauncher(port: number): Launch {
  const started = launch(port, { env: { PRELOAD_PAGES: 'false' } });
  launches.push(started);
  return started;
}

describe('npm start and its port', () => {
  it('stops at once when the port is taken, saying so, before starting PostgreSQL', async () => {
    const holder = net.createServer();
    const port = await unusedPort();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    try {
      const launcher = startLauncher(port);
      expect(await launcher.exited).toBe(1);
      expect(launcher.output()).toContain(`port ${port} on 0.0.0.0 is in use`);
      expect(fs.existsSync(path.join(launcher.dataDir, 'postgres'))).toBe(false);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('answers 503 (readiness: starting) while it starts, then is ready', async () => {
    const port = await unusedPort();
    const launcher = startLauncher(port);
    const health = `http://127.0.0.1:${port}/api/health/ready`;
    const starting = await eventually(() => fetch(health).catch(() => undefined), 60_000);
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('5');
    expect(starting.headers.get('content-type')).toBe('application/problem+json');
    expect(await starting.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', reason: 'starting' });

    await eventually(async () => launcher.output().includes('Press Ctrl-C to stop'), 200_000, `the banner, in:\n${launcher.output()}`);
    expect((await fetch(health)).status).toBe(200);
  }, 240_000);
});
