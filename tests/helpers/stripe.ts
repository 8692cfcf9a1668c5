import crypto from 'node:crypto';
import { StripeEmulator } from '../stripe-emulator/server';
import { startServer, type RunningServer } from '../setup/server';
import { call } from './api';
import { stripeModeEnv } from './stripe-env';

/** The Stripe emulator on a free loopback port and a Paybase server with PAYMENT_PROCESSOR=stripe pointed at it. */
export async function startStripeServer(env: Record<string, string> = {}) {
  const emulator = new StripeEmulator({ webhookRetryDelayMs: 200 });
  await emulator.start();
  const serverEnv = { ...stripeModeEnv(emulator), ...env };
  let server: RunningServer = await startServer({ env: serverEnv });
  const demoKey = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
  const api = {
    get: (path: string) => call('GET', path, { key: demoKey, baseUrl: server.baseUrl }),
    post: (path: string, body?: unknown) =>
      call('POST', path, { key: demoKey, body, baseUrl: server.baseUrl, headers: { 'Idempotency-Key': crypto.randomUUID() } }),
  };
  return {
    emulator,
    get server() {
      return server;
    },
    api,
    /** SIGKILLs the server (its web process and worker) and starts it again on the same database. */
    async crashAndRestart() {
      const { dataDir } = server;
      await server.kill();
      server = await startServer({ env: serverEnv, dataDir });
    },
    stop: async () => Promise.all([server.stop(), emulator.stop()]),
  };
}
