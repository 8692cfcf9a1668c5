import type { TestProject } from 'vitest/node';
import { startServer } from './server';

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

/** One real server (and embedded PostgreSQL) for the whole integration run. */
export default async function setup(project: TestProject) {
  const server = await startServer({ env: WEBHOOK_TEST_ENV });
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseUrl', server.databaseUrl);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}
