import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { memberLoginTokens, members, paymentMethods } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { listWalletPaymentMethods } from '@/lib/payments/payment-methods';
import { listRecentEmails } from '@/lib/email/send-email';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { sha256Hex } from '@/lib/secrets';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { freshIp, latestLoginToken, signInMember, uniqueEmail } from '../helpers/sessions';

describe('wallet member sign-in by emailed link', () => {
  it('mails a single-use link to a page that verifies, and Verify opens the wallet', async () => {
    const email = uniqueEmail('member');
    const sent = await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ sent: true, expiresIn: 900 });

    const [mail] = await listDevMailbox(getDb(), { to: email });
    expect(mail!.category).toBe('member.login');
    expect(mail!.textBody).toMatch(/\/member\/verify\?token=mlt_/);
    const loginToken = await latestLoginToken(email);
    const [stored] = await getDb()
      .select()
      .from(memberLoginTokens)
      .where(eq(memberLoginTokens.tokenHash, sha256Hex(loginToken)));
    expect(stored).toBeTruthy();
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(15 * 60_000);

    const verified = await call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() });
    expect(verified.status).toBe(200);
    const me = await call('GET', '/api/Auth/Identity', { key: verified.body.accessToken });
    expect(me.body).toMatchObject({ userType: 'Member', email, id: expect.stringMatching(/^mem_/) });

    const reused = await call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() });
    expect(reused.status).toBe(401);
  });

  it('answers the same for an address with and without a wallet, and finds the same wallet next time', async () => {
    const first = await signInMember();
    const again = await signInMember(first.email.toUpperCase());
    const ids = await Promise.all(
      [first.tokens.accessToken, again.tokens.accessToken].map(async (t) => (await call('GET', '/api/Auth/Identity', { key: t })).body.id),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await getDb().select().from(members).where(eq(members.id, ids[0]))).toHaveLength(1);
  });

  it('refuses a link older than 15 minutes', async () => {
    const email = uniqueEmail('member');
    await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() });
    const loginToken = await latestLoginToken(email);
    await getDb()
      .update(memberLoginTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberLoginTokens.tokenHash, sha256Hex(loginToken)));
    const answer = await call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHENTICATED');
  });

  it('rotates, detects reuse and logs out like the other audiences', async () => {
    const { tokens } = await signInMember();
    const rotated = await call('POST', '/api/MemberAuth/Refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(rotated.status).toBe(200);
    const moved = await call('POST', '/api/MemberAuth/Refresh', { body: { refreshToken: rotated.body.refreshToken } });
    expect(moved.status).toBe(200);
    // The first token again, after its successor was used: reuse (docs/auth.md, grace window).
    const reuse = await call('POST', '/api/MemberAuth/Refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(reuse.body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await call('GET', '/api/Auth/Identity', { key: moved.body.accessToken })).status).toBe(401);

    const fresh = await signInMember();
    expect((await call('POST', '/api/MemberAuth/Logout', { body: { refreshToken: fresh.tokens.refreshToken } })).status).toBe(204);
    expect((await call('GET', '/api/Auth/Identity', { key: fresh.tokens.accessToken })).status).toBe(401);
  });

  it('limits links per address: the sixth within 15 minutes gets 429 with Retry-After', async () => {
    const email = uniqueEmail('member');
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() })).status).toBe(202);
    }
    const limited = await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await listRecentEmails(getDb(), { to: email })).toHaveLength(5);
  });

  it('validates the email', async () => {
    const answer = await call('POST', '/api/MemberAuth/Login', { body: { email: 'nope' }, headers: freshIp() });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('email');
  });
});

describe('wallet contents', () => {
  it("lists the member's saved cards across sellers, by verified email, without detached ones", async () => {
    const email = uniqueEmail('wallet');
    const card = (merchantId: string, customerId: string, last4: string, detachedAt: Date | null = null) => ({
      id: newId('paymentMethod'),
      merchantId,
      customerId,
      processorToken: 'tok_visa',
      brand: 'visa',
      last4,
      expMonth: 12,
      expYear: 2030,
      detachedAt,
    });
    const sellers = await Promise.all([newMerchant(), newMerchant()]);
    const [first, second] = await Promise.all(
      sellers.map(
        async (seller, i) => (await seller.api.post('/api/Customer', { email: i === 0 ? email : email.toUpperCase(), name: 'Me' })).body.id as string,
      ),
    );
    const stranger = (await sellers[0]!.api.post('/api/Customer', { email: uniqueEmail('other') })).body.id as string;
    await getDb()
      .insert(paymentMethods)
      .values([
        card(sellers[0]!.merchant.id, first!, '4242'),
        card(sellers[1]!.merchant.id, second!, '1111'),
        card(sellers[1]!.merchant.id, second!, '0000', new Date()),
        card(sellers[0]!.merchant.id, stranger, '9999'),
      ]);
    const wallet = await listWalletPaymentMethods(getDb(), email, { page: 1, pageSize: 10 });
    expect(wallet.totalCount).toBe(2);
    expect(wallet.data.map((m) => m.last4).sort()).toEqual(['1111', '4242']);
    expect(new Set(wallet.data.map((m) => m.sellerName))).toEqual(new Set(sellers.map((s) => s.merchant.name)));
    const paged = await listWalletPaymentMethods(getDb(), email, { page: 2, pageSize: 1 });
    expect(paged).toMatchObject({ totalCount: 2, hasMore: false });
    expect(paged.data).toHaveLength(1);
  });

  it('lets only one of two concurrent verifications of the same link succeed', async () => {
    const email = uniqueEmail('member');
    await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() });
    const loginToken = await latestLoginToken(email);
    const answers = await Promise.all([
      call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() }),
      call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });
});
