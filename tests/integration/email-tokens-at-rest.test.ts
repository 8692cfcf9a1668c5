import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { outboundEmails } from '@/lib/db/schema';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { requestPortalLink } from '@/lib/portal/portal';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { customerWithCard } from '../helpers/subscriptions';
import { PASSWORD, freshIp, latestLinkToken, registerSeller, registerVerifiedSeller, uniqueEmail } from '../helpers/sessions';

/** The outbox rows of one address, exactly as stored. */
const storedMail = (to: string) => getDb().select().from(outboundEmails).where(eq(outboundEmails.toAddress, to.toLowerCase()));

/** Anything in a stored row that looks like one of our emailed tokens or a link's token. */
const TOKEN_LIKE = /(mlt|inv|emv|prt)_[A-Za-z0-9_-]{16,}|token=(?!\[redacted\])[A-Za-z0-9_%-]{16,}/;

/** The newest mail of a category as the dev mailbox shows it, with the token of its link. */
async function inboxToken(to: string, category: string) {
  const mail = (await listDevMailbox(getDb(), { to })).find((m) => m.category === category);
  expect(mail, `${category} mail to ${to}`).toBeDefined();
  return decodeURIComponent(/[?&]token=([^\s&"]+)/.exec(mail!.textBody)![1]!);
}

function expectNoTokenStored(rows: (typeof outboundEmails.$inferSelect)[], token: string) {
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(encodeURIComponent(token));
    expect(stored).not.toMatch(TOKEN_LIKE);
  }
}

describe('single-use tokens in the email outbox', () => {
  it('an invitation read from the outbox cannot join the team: the row holds the link redacted, the inbox the working link', async () => {
    const owner = await registerVerifiedSeller();
    const email = uniqueEmail('admin');
    const invited = await call('POST', '/api/MerchantTeam/Invitation', { key: owner.tokens.accessToken, body: { email, role: 'Admin' } });
    expect(invited.status, invited.text).toBe(201);

    const [row] = await storedMail(email);
    expect(row!.textBody).toContain('/merchant/accept-invite?token=[redacted]');
    expect(row!.textBody).toContain('Invitation code (for apps): [redacted]');
    expect(row!.htmlBody).toContain('token=[redacted]');
    expect(row!.sealedContent).toMatch(/^v1:/);
    const token = await inboxToken(email, 'merchant.invitation');
    expectNoTokenStored([row!], token);

    // What someone reading the table could try, and the person with the mail can do.
    const fromTable = /token=([^\s&"]+)/.exec(row!.textBody)![1]!;
    const stolen = await call('POST', '/api/MerchantAuth/AcceptInvitation', {
      body: { invitationToken: decodeURIComponent(fromTable), name: 'Mallory', password: PASSWORD },
      headers: freshIp(),
    });
    expect(stolen.status).toBe(401);
    const joined = await call('POST', '/api/MerchantAuth/AcceptInvitation', {
      body: { invitationToken: token, name: 'Ada Admin', password: PASSWORD },
      headers: freshIp(),
    });
    expect(joined.status, joined.text).toBe(201);
  });

  it('no emailed link or code is stored in clear: wallet sign-in, email verification, password reset, portal link', async () => {
    const member = uniqueEmail('member');
    expect((await call('POST', '/api/MemberAuth/Login', { body: { email: member }, headers: freshIp() })).status).toBe(202);
    expectNoTokenStored(await storedMail(member), await inboxToken(member, 'member.login'));

    const seller = await registerSeller();
    expectNoTokenStored(await storedMail(seller.email), await latestLinkToken(seller.email, 'merchant.verify_email'));
    expect((await call('POST', '/api/MerchantAuth/PasswordReset', { body: { email: seller.email }, headers: freshIp() })).status).toBe(202);
    expectNoTokenStored(await storedMail(seller.email), await latestLinkToken(seller.email, 'merchant.password_reset'));

    const { api, merchant } = await newMerchant();
    const customer = await customerWithCard(api, merchant.id, undefined, uniqueEmail('portal'));
    await getDb().transaction((tx) => requestPortalLink(tx, customer.customerId));
    expectNoTokenStored(await storedMail(customer.email), await inboxToken(customer.email, 'portal.link'));
  });

  it('mail without a token is stored as written, with nothing sealed', async () => {
    const seller = await registerSeller();
    expect((await call('POST', '/api/MerchantAuth/PasswordReset', { body: { email: seller.email }, headers: freshIp() })).status).toBe(202);
    const reset = await latestLinkToken(seller.email, 'merchant.password_reset');
    const confirmed = await call('POST', '/api/MerchantAuth/PasswordReset/Confirm', {
      body: { resetToken: reset, password: 'a new long password' },
      headers: freshIp(),
    });
    expect(confirmed.status, confirmed.text).toBe(204);
    const notice = (await storedMail(seller.email)).find((row) => row.category === 'merchant.password_changed');
    expect(notice!.sealedContent).toBeNull();
    expect(notice!.textBody).not.toContain('[redacted]');
  });

  it('the dev mailbox (JSON) shows the link of a mail not sent over SMTP, as its inbox', async () => {
    const member = uniqueEmail('mailbox');
    await call('POST', '/api/MemberAuth/Login', { body: { email: member }, headers: freshIp() });
    const mailbox = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(member)}`);
    expect(mailbox.status).toBe(200);
    expect(mailbox.body.data[0]).toMatchObject({ category: 'member.login', redacted: false });
    expect(mailbox.body.data[0].links.some((link: string) => /\/member\/verify\?token=mlt_/.test(link))).toBe(true);
  });
});
