import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { PASSWORD, freshIp, newAdmin, registerSeller, signInMember } from '../helpers/sessions';

describe('platform admin', () => {
  it('signs in by name and password; a wrong password gets 401 like an unknown name', async () => {
    const { name, tokens } = await newAdmin();
    const me = await call('GET', '/api/Auth/Identity', { key: tokens.accessToken });
    expect(me.body).toMatchObject({ userType: 'Admin', name });
    const wrong = await call('POST', '/api/AdminAuth/Login', { body: { name, password: 'not it at all' }, headers: freshIp() });
    const unknown = await call('POST', '/api/AdminAuth/Login', { body: { name: `${name}-x`, password: PASSWORD }, headers: freshIp() });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('lists sellers with status, paged and filtered', async () => {
    const { tokens } = await newAdmin();
    const { email } = await registerSeller();
    const page = await call('GET', `/api/AdminMerchant?email=${encodeURIComponent(email)}`, { key: tokens.accessToken });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1, pageSize: 20, totalCount: 1, hasMore: false });
    expect(page.body.data[0]).toMatchObject({ email, status: 'active', accountType: 'Business' });
    expect(page.body.data[0].passwordHash).toBeUndefined();
    const small = await call('GET', '/api/AdminMerchant?pageSize=1', { key: tokens.accessToken });
    expect(small.body.data).toHaveLength(1);
    expect(small.body.hasMore).toBe(true);
    expect((await call('GET', '/api/AdminMerchant?pageSize=0', { key: tokens.accessToken })).status).toBe(400);
  });

  it('pages all sellers by cursor, with no filter (startingAfter and endingBefore)', async () => {
    const { tokens } = await newAdmin();
    await registerSeller();
    await registerSeller();
    await registerSeller();
    const list = (query: string) => call('GET', `/api/AdminMerchant?${query}`, { key: tokens.accessToken });
    const first = await list('pageSize=2');
    expect(first.status, first.text).toBe(200);
    const next = await list(`pageSize=2&startingAfter=${first.body.data[1].id}`);
    expect(next.status, next.text).toBe(200);
    expect(next.body.data).toHaveLength(2);
    expect(next.body.data.map((seller: { id: string }) => seller.id)).not.toContain(first.body.data[0].id);
    expect(next.body.data[0].createdAt <= first.body.data[1].createdAt).toBe(true);
    const back = await list(`pageSize=1&endingBefore=${next.body.data[0].id}`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.data[0].id).toBe(first.body.data[1].id);
  });

  it('suspending a seller stops its API keys and tokens at once; reinstating restores the keys', async () => {
    const { tokens: admin } = await newAdmin();
    const { merchantId, email, tokens: seller } = await registerSeller();
    const created = await call('POST', '/api/MerchantApiKey', { key: seller.accessToken, body: { name: 'backend', scopes: ['products:read'] } });
    const key = created.body.secret as string;
    expect((await call('GET', '/api/Product', { key })).status).toBe(200);

    const suspended = await call('POST', `/api/AdminMerchant/${merchantId}/Suspend`, { key: admin.accessToken });
    expect(suspended.status).toBe(200);
    expect(suspended.body.status).toBe('suspended');
    // The seller's machine (lib/merchants/merchant-states.ts): a suspended seller is not suspended again.
    const twice = await call('POST', `/api/AdminMerchant/${merchantId}/Suspend`, { key: admin.accessToken });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'INVALID_STATE', state: 'suspended', requested: 'suspended' });

    expect((await call('GET', '/api/Product', { key })).status).toBe(401);
    expect((await call('GET', '/api/Auth/Identity', { key: seller.accessToken })).status).toBe(401);
    expect((await call('POST', '/api/MerchantAuth/Refresh', { body: { refreshToken: seller.refreshToken } })).status).toBe(401);
    // The right password learns the account is suspended; a wrong one learns nothing more than before.
    const login = await call('POST', '/api/MerchantAuth/Login', { body: { email, password: PASSWORD }, headers: freshIp() });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect(login.body.detail).toContain('suspended');
    const wrong = await call('POST', '/api/MerchantAuth/Login', { body: { email, password: 'not the password at all' }, headers: freshIp() });
    const unknown = await call('POST', '/api/MerchantAuth/Login', { body: { email: `x-${email}`, password: 'not the password at all' }, headers: freshIp() });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    expect(wrong.body.detail).not.toContain('suspended');

    const reinstated = await call('POST', `/api/AdminMerchant/${merchantId}/Reinstate`, { key: admin.accessToken });
    expect(reinstated.body.status).toBe('active');
    expect((await call('POST', `/api/AdminMerchant/${merchantId}/Reinstate`, { key: admin.accessToken })).body).toMatchObject({
      code: 'INVALID_STATE',
      state: 'active',
    });
    expect((await call('GET', '/api/Product', { key })).status).toBe(200);
    // Old sign-ins stay ended; a new one works.
    expect((await call('GET', '/api/Auth/Identity', { key: seller.accessToken })).status).toBe(401);
    const again = await call('POST', '/api/MerchantAuth/Login', { body: { email, password: PASSWORD }, headers: freshIp() });
    expect(again.status).toBe(200);
  });

  it('answers 404 for an unknown seller and 403 WRONG_TOKEN_TYPE for seller and member tokens', async () => {
    const { tokens: admin } = await newAdmin();
    const missing = await call('POST', '/api/AdminMerchant/mer_nope/Suspend', { key: admin.accessToken });
    expect(missing.status).toBe(404);
    const { merchant } = await newMerchant();
    const { tokens: seller } = await registerSeller();
    const { tokens: member } = await signInMember();
    for (const token of [seller.accessToken, member.accessToken]) {
      const answer = await call('POST', `/api/AdminMerchant/${merchant.id}/Suspend`, { key: token });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('WRONG_TOKEN_TYPE');
    }
  });

  it('admin refresh rotates and logout ends the sign-in', async () => {
    const { tokens } = await newAdmin();
    const rotated = await call('POST', '/api/AdminAuth/Refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(rotated.status).toBe(200);
    expect((await call('POST', '/api/AdminAuth/Logout', { key: rotated.body.accessToken })).status).toBe(204);
    expect((await call('GET', '/api/AdminMerchant', { key: rotated.body.accessToken })).status).toBe(401);
  });
});
