import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { postJson } from './console-helpers';

test('the portal refuses a declining card with the decline reason and keeps the default', async ({ page, baseURL }) => {
  const email = `cards-seller-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customerEmail = `cards-customer-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const json = postJson(baseURL);
  // A backend saves the customer's first card (verified) over the API.
  const seller = await json('/api/MerchantAuth/Register', { email, password: 'a long seller password', name: 'Card Shop', accountType: 'Business' });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['customers:write', 'payments:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const customer = await json('/api/Customer', { email: customerEmail, name: 'Grace' }, auth);
  await json(`/api/Customer/${customer.id}/PaymentMethod`, { tokenRef: 'tok_visa' }, { ...auth, 'Idempotency-Key': crypto.randomUUID() });

  // The customer signs in to the portal with the link from the mailbox (read as JSON).
  await page.goto(`/portal/${customer.id}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  const mailbox = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(customerEmail)}`)).json()) as { data: { links: string[] }[] };
  const link = mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes('/verify?token='))!;
  await page.goto(link);
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();

  const form = page.getByRole('form', { name: 'Add a card' });
  await form.getByLabel('Card number').fill('4000 0000 0000 0002');
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect(page.getByText('Card ending in 0002 not saved: Your card was declined. Your default card is unchanged.')).toBeVisible();
  await expect(page.getByText('0002')).toHaveCount(1); // only in the message, not in the card list
  await shot(page, '47-portal-card-declined');

  await form.getByLabel('Card number').fill('5555 5555 5555 4444');
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect(page.getByText('Card ending in 4444 added and set as default.')).toBeVisible();
  await shot(page, '48-portal-card-added');
});
