import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { test as base, expect } from './fixtures';
import { StripeEmulator } from '../tests/stripe-emulator/server';
import { startServer, type RunningServer } from '../tests/setup/server';
import { stripeModeEnv } from '../tests/helpers/stripe-env';

/**
 * Browser tests of Paybase in Stripe mode: the Stripe emulator (test code, with its stand-in for
 * Stripe.js) and a Paybase server pointed at it, both on free loopback ports, started once per
 * worker; `baseURL` (and so `page` and `request`) is that server.
 */
export interface StripeMode {
  emulator: StripeEmulator;
  server: RunningServer;
  demoKey: string;
}

export const test = base.extend<{ baseURL: string }, { stripeMode: StripeMode }>({
  stripeMode: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
    async ({}, use) => {
      const emulator = new StripeEmulator({ webhookRetryDelayMs: 200 });
      await emulator.start();
      const server = await startServer({ env: { ...stripeModeEnv(emulator), SIGN_UP_MAX_PER_IP: '1000' } });
      const demoKey = fs.readFileSync(path.join(server.dataDir, 'demo-api-key'), 'utf8').trim();
      await use({ emulator, server, demoKey });
      await server.stop();
      await emulator.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  baseURL: async ({ stripeMode }, use) => {
    await use(stripeMode.server.baseUrl);
  },
});

export { expect };

/** POST to the Stripe-mode server's API as its demo seller and return the body. */
export async function stripeModeApi<T = Record<string, any>>(
  request: APIRequestContext,
  stripeMode: StripeMode,
  apiPath: string,
  data: Record<string, unknown>,
) {
  const answer = await request.post(apiPath, { headers: { authorization: `Bearer ${stripeMode.demoKey}`, 'idempotency-key': crypto.randomUUID() }, data });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return (await answer.json()) as T;
}

/** Types a card into Stripe.js's card element (a frame of Stripe's origin, the emulator's here). */
export async function typeCard(scope: Locator | Page, number: string, expiry = '12 / 34', cvc = '123') {
  const frame = scope.locator('[data-testid="stripe-card"] iframe').contentFrame();
  await frame.getByPlaceholder('Card number').fill(number);
  await frame.getByPlaceholder('MM / YY').fill(expiry);
  await frame.getByPlaceholder('CVC').fill(cvc);
}

/** Signs `email` in to the portal of `customerId` as a customer does: the emailed link (read from the dev mailbox as JSON), then their email. */
export async function signInToPortal(page: Page, baseURL: string, customerId: string, email: string) {
  await page.goto(`/portal/${customerId}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  const mailbox = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)).json()) as { data: { links: string[] }[] };
  await page.goto(mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes('/verify?token='))!);
  await page.getByLabel('Your email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}
