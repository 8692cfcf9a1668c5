import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests in Chromium against the real service, started once by e2e/global-setup.ts
 * (embedded PostgreSQL, worker and Next.js, exactly as `npm start`). Debian's chromium is used
 * where installed (no browser download); CHROMIUM_PATH overrides it.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
