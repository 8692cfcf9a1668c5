import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

const SERVER_FILE = path.resolve('test-results', 'e2e-server.json');
const SHOTS = path.resolve('test-results', 'screenshots');

export const test = base.extend<{ baseURL: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
  baseURL: async ({}, use) => {
    const { baseUrl } = JSON.parse(fs.readFileSync(SERVER_FILE, 'utf8')) as { baseUrl: string };
    await use(baseUrl);
  },
});

export { expect };

/** Full-page screenshot under test-results/screenshots (not committed), for a person to look at. */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
