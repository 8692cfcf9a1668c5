import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { inviteTeamMember, signInAsDemoSeller } from './console-helpers';
import { CURRENT_API_VERSION } from '../lib/http/api-versions';

test('a Developer’s key form offers only its role’s scopes, and the server refuses a forged form asking for refunds', async ({ page, browser, baseURL }) => {
  const developerEmail = `developer-${crypto.randomBytes(3).toString('hex')}@example.com`;

  await signInAsDemoSeller(page);
  const developer = await inviteTeamMember(page, browser, baseURL, developerEmail, 'Developer', 'Dee Developer');

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
  await developer.context().close();
});
