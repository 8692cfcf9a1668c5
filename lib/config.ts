import path from 'node:path';

/** Process configuration, read once from the environment. */
export const config = {
  /** `APP_ENV=production` turns off local conveniences (demo seeding, dev mailbox) and turns on secure cookies. */
  get isProduction() {
    return process.env.APP_ENV === 'production';
  },
  get dataDir() {
    return path.resolve(/* turbopackIgnore: true */ process.env.DATA_DIR ?? '.data');
  },
  get databaseUrl() {
    return process.env.DATABASE_URL;
  },
  get port() {
    return Number(process.env.PORT ?? 3000);
  },
  get publicUrl() {
    return process.env.PUBLIC_URL ?? `http://localhost:${this.port}`;
  },
  get logLevel() {
    return process.env.LOG_LEVEL ?? 'info';
  },
  get workerConcurrency() {
    return Number(process.env.WORKER_CONCURRENCY ?? 5);
  },
  get runWorkerInProcess() {
    return process.env.RUN_WORKER !== 'false';
  },
};
