import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect } from './fixtures';

/** The demo seller's all-scope API key, written by the server the run started. */
export function demoKey(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

/** POST to the developer API as the demo seller (with an Idempotency-Key) and return the body. */
export async function demoApi<T = Record<string, any>>(
  request: APIRequestContext,
  apiPath: string,
  data: Record<string, unknown>,
  key = demoKey(),
): Promise<T> {
  const answer = await request.post(apiPath, { headers: { authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID() }, data });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return (await answer.json()) as T;
}

/** A poster of JSON to the service (any credential in `headers`) that fails the test on an error status and returns the body. */
export function postJson(baseURL: string) {
  return async (apiPath: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseURL}${apiPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as any;
    expect(response.status, `${apiPath}: ${JSON.stringify(parsed)}`).toBeLessThan(300);
    return parsed;
  };
}

/** Fails when the page scrolls sideways (the document is wider than the viewport). */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.document, 'page wider than the viewport').toBeLessThanOrEqual(widths.viewport);
}

export async function signInAsDemoSeller(page: Page) {
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}

/** Fails on any serious or critical axe violation (WCAG 2 A and AA rules), naming each. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/**
 * The signed-in Owner (on `page`, at any console page) invites `email` as `role`; the invitee
 * accepts from the dev mailbox in a context of its own and is signed in there. Returns its page.
 */
export async function inviteTeamMember(page: Page, browser: Browser, baseURL: string, email: string, role: string, name: string): Promise<Page> {
  await page.goto('/merchant/team');
  const inviteForm = page.getByRole('form', { name: 'Invite a team member' });
  await inviteForm.getByLabel('Email').fill(email);
  await inviteForm.getByLabel('Role').selectOption(role);
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email} as ${role}.`)).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const member = await context.newPage();
  await member.goto('/dev/mailbox');
  await member.getByLabel('Recipient').fill(email);
  await member.getByRole('button', { name: 'Filter' }).click();
  // The mail's links carry PUBLIC_URL (localhost); stay on the test's host so the cookies go along.
  const href = (await member
    .getByRole('article', { name: /invited you to/ })
    .first()
    .getByRole('link', { name: /\/merchant\/accept-invite\?token=/ })
    .getAttribute('href'))!;
  await member.goto(`${new URL(href).pathname}${new URL(href).search}`);
  await member.getByLabel('Your name').fill(name);
  await member.getByLabel('Password').fill(`${role.toLowerCase()}-password-123`);
  await member.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(member.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  return member;
}
