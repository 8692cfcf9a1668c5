import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { PASSWORD, freshIp, joinTeam, registerVerifiedSeller } from '../helpers/sessions';

const settings = (accessToken: string) => call('GET', '/api/MerchantSettings', { key: accessToken });
const update = (accessToken: string, body: unknown) => call('PUT', '/api/MerchantSettings', { key: accessToken, body });

describe('seller account settings', () => {
  it('Owners change the business name, support contacts, address, time zone and account type', async () => {
    const owner = await registerVerifiedSeller();
    const before = await settings(owner.tokens.accessToken);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      id: owner.merchantId,
      name: 'Test Seller',
      accountType: 'Business',
      timeZone: 'UTC',
      supportEmail: null,
      sendReceipts: true,
    });

    const changed = await update(owner.tokens.accessToken, {
      name: 'Linen & Co',
      accountType: 'Individual',
      supportEmail: 'Help@Linen.example',
      supportUrl: 'https://linen.example/help',
      address: { line1: '1 Rue de la Paix', city: 'Paris', postalCode: '75002', country: 'fr' },
      timeZone: 'Europe/Paris',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Linen & Co',
      accountType: 'Individual',
      supportEmail: 'help@linen.example',
      supportUrl: 'https://linen.example/help',
      address: { line1: '1 Rue de la Paix', line2: null, city: 'Paris', postalCode: '75002', country: 'FR' },
      timeZone: 'Europe/Paris',
    });
    expect((await settings(owner.tokens.accessToken)).body).toEqual(changed.body);
    expect((await call('GET', '/api/Auth/Identity', { key: owner.tokens.accessToken })).body).toMatchObject({ name: 'Linen & Co', accountType: 'Individual' });

    // Only the fields sent change; null clears.
    const partial = await update(owner.tokens.accessToken, { supportUrl: null, address: { city: 'Lyon' }, sendReceipts: false });
    expect(partial.body).toMatchObject({ name: 'Linen & Co', supportUrl: null, address: { line1: '1 Rue de la Paix', city: 'Lyon' }, sendReceipts: false });
    expect((await update(owner.tokens.accessToken, { sendReceipts: 'no' })).status).toBe(400);

    // The sign-in API still takes accountType, matched against the setting.
    const login = (accountType: string) =>
      call('POST', '/api/MerchantAuth/Login', { body: { email: owner.email, password: PASSWORD, accountType }, headers: freshIp() });
    expect((await login('Individual')).status).toBe(200);
    expect((await login('Business')).status).toBe(401);
  });

  it('refuses an unknown time zone, a non-http support URL and a bad country, changing nothing', async () => {
    const owner = await registerVerifiedSeller();
    for (const [body, path] of [
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ supportUrl: 'ftp://files.example' }, 'supportUrl'],
      [{ address: { country: 'France' } }, 'address.country'],
      [{ name: '' }, 'name'],
      [{ accountType: 'Charity' }, 'accountType'],
    ] as const) {
      const refused = await update(owner.tokens.accessToken, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[0].path).toBe(path);
    }
    expect((await settings(owner.tokens.accessToken)).body).toMatchObject({ timeZone: 'UTC', supportUrl: null, name: 'Test Seller' });
  });

  it('every member reads the settings; only Owners and Admins change them', async () => {
    const owner = await registerVerifiedSeller();
    const developer = await joinTeam(owner.tokens.accessToken, 'Developer');
    const admin = await joinTeam(owner.tokens.accessToken, 'Admin');
    expect((await settings(developer.tokens.accessToken)).status).toBe(200);
    const refused = await update(developer.tokens.accessToken, { timeZone: 'Asia/Tokyo' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await update(admin.tokens.accessToken, { timeZone: 'Asia/Tokyo' })).body.timeZone).toBe('Asia/Tokyo');
  });
});
