import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startServer } from '../tests/setup/server';
import { WEBHOOK_TEST_ENV } from '../tests/setup/start-server';

export const SERVER_FILE = path.resolve('test-results', 'e2e-server.json');

/**
 * Starts one real server for the browser run; tests read its address from SERVER_FILE. Webhook
 * receivers in tests listen on 127.0.0.1 and retries are compressed, as in the vitest run.
 */
export default async function globalSetup(_config: FullConfig) {
  const server = await startServer({ env: WEBHOOK_TEST_ENV });
  fs.mkdirSync(path.dirname(SERVER_FILE), { recursive: true });
  fs.writeFileSync(SERVER_FILE, JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, dataDir: server.dataDir }));
  process.env.PLAYWRIGHT_BASE_URL = server.baseUrl;
  return async () => {
    await server.stop();
    fs.rmSync(SERVER_FILE, { force: true });
  };
}
