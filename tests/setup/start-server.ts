import type { TestProject } from 'vitest/node';
import { startServer, SUITE_SERVER_ENV, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    dataDir: string;
  }
}

/**
 * Webhook receivers in tests listen on 127.0.0.1, and retries must happen within seconds: the
 * schedule and timeout are compressed (production: 5s,5m,30m,2h,5h,10h,10h and 10 s).
 */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,600ms,600ms,600ms,600ms,600ms',
  WEBHOOK_TIMEOUT_MS: '1500',
};

/**
 * One real server (and embedded PostgreSQL) for the whole integration run. Every test project
 * (vitest.config.ts) calls this; they share the server, which stops when the last is done.
 */
const shared = globalThis as unknown as { __paybaseTestServer?: { server: Promise<RunningServer>; users: number } };

export default async function setup(project: TestProject) {
  shared.__paybaseTestServer ??= { server: startServer({ env: { ...WEBHOOK_TEST_ENV, ...SUITE_SERVER_ENV } }), users: 0 };
  const entry = shared.__paybaseTestServer;
  entry.users++;
  const server = await entry.server;
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseUrl', server.databaseUrl);
  project.provide('dataDir', server.dataDir);
  return async () => {
    if (--entry.users > 0) return;
    shared.__paybaseTestServer = undefined;
    await server.stop();
  };
}
