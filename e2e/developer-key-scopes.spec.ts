import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { signInAsDemoSeller } from './console-helpers';
import { CURRENT_API_VERSION } from '../lib/http/api-versions';

test('a Developer’s key form offers only its role’s scopes, and the server refuses a forged form asking for refunds', async ({ page, browser, baseURL }) => {
  const developerEmail = `developer-${crypto.randomBytes(3).toString('hex')}@example.com`;

  await signInAsDemoSeller(page);
  await page.goto('/merchant/team');
  const inviteForm = page.getByRole('form', { name: 'Invite a team member' });
  await inviteForm.getByLabel('Email').fill(developerEmail);
  await inviteForm.getByLabel('Role').selectOption('Developer');
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${developerEmail} as Developer.`)).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const developer = await context.newPage();
  await developer.goto(`/dev/mailbox?to=${encodeURIComponent(developerEmail)}`);
  // The mail's links carry PUBLIC_URL (localhost); stay on the test's host so the cookies go along.
  const href = (await developer
    .getByRole('article', { name: /invited you to/ })
    .first()
    .getByRole('link', { name: /\/merchant\/accept-invite\?token=/ })
    .getAttribute('href'))!;
  await developer.goto(`${new URL(href).pathname}${new URL(href).search}`);
  await developer.getByLabel('Your name').fill('Dee Developer');
  await developer.getByLabel('Password').fill('developer-password-123');
  await developer.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(developer.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await developer.goto('/merchant/developers/api-keys');
  const keyForm = developer.getByRole('form', { name: 'New API key' });
  await expect(developer.getByTestId('api-key-role-limit')).toBeVisible();
  await expect(keyForm.getByRole('checkbox', { name: 'webhooks:write', exact: true })).toBeVisible();
  await expect(keyForm.getByRole('checkbox', { name: /refunds:write/ })).toHaveCount(0);
  await expect(keyForm.getByRole('checkbox', { name: /products:write/ })).toHaveCount(0);
  await shot(developer, 'developer-key-scopes');

  // A form changed in the browser to ask for refunds:write is refused by the server.
  await keyForm.getByLabel('Name').fill('Forged refunds');
  await keyForm.getByRole('checkbox', { name: 'products:read', exact: true }).check();
  await keyForm.evaluate((form) => {
    form.appendChild(Object.assign(document.createElement('input'), { type: 'hidden', name: 'scopes', value: 'refunds:write' }));
  });
  await keyForm.getByRole('button', { name: 'Create key' }).click();
  await expect(keyForm.getByText("Your role (Developer) cannot give an API key 'refunds:write'", { exact: false })).toBeVisible();
  await expect(developer.getByTestId('new-api-key')).toHaveCount(0);

  // What the role allows is created as asked.
  await developer.reload();
  await keyForm.getByLabel('Name').fill('Webhooks only');
  await keyForm.getByRole('checkbox', { name: 'webhooks:write', exact: true }).check();
  await keyForm.getByRole('button', { name: 'Create key' }).click();
  await expect(developer.getByTestId('new-api-key')).toBeVisible();
  // The key is pinned to the API version current when it was made, shown in its row.
  await developer.reload();
  await expect(developer.getByRole('row', { name: /Webhooks only/ }).getByRole('cell', { name: CURRENT_API_VERSION, exact: true })).toBeVisible();
  await context.close();
});
