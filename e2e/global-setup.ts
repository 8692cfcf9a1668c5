import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startServer } from '../tests/setup/server';
import { WEBHOOK_TEST_ENV } from '../tests/setup/start-server';

/**
 * Recovery hands a charge the processor never settles (4000 0000 0000 0119) to a person after two
 * tries a second apart instead of 20 over hours, so e2e/payment-review.spec.ts can show it.
 */
const RECOVERY_GIVES_UP_SOON = { PAYMENT_RECONCILE_DELAY_MS: '500', PAYMENT_RECOVERY_MAX_ATTEMPTS: '2' };

export const SERVER_FILE = path.resolve('test-results', 'e2e-server.json');

/**
 * Starts one real server for the browser run; tests read its address from SERVER_FILE. Webhook
 * receivers in tests listen on 127.0.0.1 and retries are compressed, as in the vitest run; recovery
 * gives up soon (RECOVERY_GIVES_UP_SOON).
 */
export default async function globalSetup(_config: FullConfig) {
  // Every browser test signs up sellers and asks for sign-in links from 127.0.0.1: the per-address
  // budget (30 per 15 minutes in production) would refuse the last tests of a fast run.
  const server = await startServer({ env: { ...WEBHOOK_TEST_ENV, ...RECOVERY_GIVES_UP_SOON, SIGN_UP_MAX_PER_IP: '1000' } });
  fs.mkdirSync(path.dirname(SERVER_FILE), { recursive: true });
  fs.writeFileSync(SERVER_FILE, JSON.stringify({ baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, dataDir: server.dataDir }));
  process.env.PLAYWRIGHT_BASE_URL = server.baseUrl;
  return async () => {
    await server.stop();
    fs.rmSync(SERVER_FILE, { force: true });
  };
}
