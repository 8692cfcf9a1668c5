import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startServer } from '../tests/setup/server';

export const SERVER_FILE = path.resolve('test-results', 'e2e-server.json');

/** Starts one real server for the browser run; tests read its address from SERVER_FILE. */
export default async function globalSetup(_config: FullConfig) {
  const server = await startServer();
  fs.mkdirSync(path.dirname(SERVER_FILE), { recursive: true });
  fs.writeFileSync(SERVER_FILE, JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, dataDir: server.dataDir }));
  process.env.PLAYWRIGHT_BASE_URL = server.baseUrl;
  return async () => {
    await server.stop();
    fs.rmSync(SERVER_FILE, { force: true });
  };
}
