import path from 'node:path';
import { defineConfig } from 'vitest/config';
import OwnServerFirstSequencer from './tests/setup/sequencer';

/** The load test fills the shared server's job queue, so it runs alone, after everything else. */
const QUEUE_LOAD_TESTS = ['tests/integration/webhook-fanout.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    globalSetup: ['tests/setup/start-server.ts'],
    setupFiles: ['tests/setup/database-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: OwnServerFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['tests/**/*.test.ts'],
          exclude: [...QUEUE_LOAD_TESTS, 'tests/suite-end/**'],
          // Test files mostly wait on servers (HTTP, jobs, webhook retries, a slow sandbox
          // processor), so more files than cores run at once; vitest's default on 2 cores is a
          // single worker. Six keep 2 cores busy (measured against 4: docs/decisions.md, "Test
          // suite under 100 s").
          maxWorkers: 6,
          // A worker process runs file after file without loading every module (the OpenAPI
          // document and its validators, drizzle, the domain) again for each: that was a fifth of
          // the suite's CPU time. A file that changes shared state (a spy, a fake timer) restores it.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'queue-load', include: QUEUE_LOAD_TESTS, sequence: { groupOrder: 1 } },
      },
      {
        // Reads what every other file left in the shared server's database (every recorded event), so it runs last.
        extends: true,
        test: { name: 'suite-end', include: ['tests/suite-end/*.test.ts'], sequence: { groupOrder: 2 } },
      },
      {
        // Type tests (`*.test-d.ts`): vitest runs `tsc --noEmit` over the whole project
        // (tsconfig.json), so a type error anywhere, not only in these files, fails the run.
        extends: true,
        test: {
          name: 'types',
          include: [],
          // vitest runs type checks last; this one starts with the run (tests/setup/early-typecheck.ts).
          globalSetup: ['tests/setup/early-typecheck.ts'],
          typecheck: { enabled: true, only: true, include: ['tests/**/*.test-d.ts'], checker: './tests/setup/typecheck-checker.mjs' },
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
