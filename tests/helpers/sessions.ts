import crypto from 'node:crypto';
import { expect } from 'vitest';
import { getDb } from '@/lib/db/client';
import { ensureAdmin } from '@/lib/admins/admins';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { call } from './api';

export const PASSWORD = 'correct horse battery staple';

let ipCounter = 0;
/**
 * A client address of its own (the test server trusts X-Forwarded-For), so per-address rate
 * limits of one test never touch another.
 */
export function freshIp(): Record<string, string> {
  ipCounter += 1;
  const bytes = crypto.randomBytes(2);
  return { 'x-forwarded-for': `198.18.${bytes[0]}.${(bytes[1]! + ipCounter) % 256}` };
}

export const uniqueEmail = (label = 'seller') => `${label}-${crypto.randomBytes(6).toString('hex')}@example.com`;

/** Registers a seller through the API and returns its first token pair. */
export async function registerSeller(options: { accountType?: 'Business' | 'Individual' } = {}) {
  const email = uniqueEmail();
  const answer = await call('POST', '/api/MerchantAuth/Register', {
    body: { email, password: PASSWORD, name: 'Test Seller', accountType: options.accountType ?? 'Business' },
    headers: freshIp(),
  });
  expect(answer.status, answer.text).toBe(201);
  return { email, merchantId: answer.body.merchant.id as string, tokens: pairOf(answer.body) };
}

export async function signInSeller(email: string, password = PASSWORD) {
  const answer = await call('POST', '/api/MerchantAuth/Login', { body: { email, password }, headers: freshIp() });
  expect(answer.status, answer.text).toBe(200);
  return pairOf(answer.body);
}

/** A platform admin of its own (so failed-sign-in counters never lock the seeded admin). */
export async function newAdmin() {
  const name = `admin-${crypto.randomBytes(4).toString('hex')}`;
  await ensureAdmin(getDb(), { name, password: PASSWORD });
  const answer = await call('POST', '/api/AdminAuth/Login', { body: { name, password: PASSWORD }, headers: freshIp() });
  expect(answer.status, answer.text).toBe(200);
  return { name, tokens: pairOf(answer.body) };
}

/** Signs a wallet member in the way a person does: request a link, read the mail, verify. */
export async function signInMember(email = uniqueEmail('member')) {
  const sent = await call('POST', '/api/MemberAuth/Login', { body: { email }, headers: freshIp() });
  expect(sent.status, sent.text).toBe(202);
  const loginToken = await latestLoginToken(email);
  const verified = await call('POST', '/api/MemberAuth/Verify', { body: { loginToken }, headers: freshIp() });
  expect(verified.status, verified.text).toBe(200);
  return { email, loginToken, tokens: pairOf(verified.body) };
}

export async function latestLoginToken(email: string, category?: string): Promise<string> {
  // The outbox keeps the token sealed; the dev mailbox (the inbox without SMTP) opens it.
  const mails = await listDevMailbox(getDb(), { to: email, limit: 20 });
  const mail = mails.find((m) => !category || m.category === category);
  const match = /[?&]token=([^\s&"]+)/.exec(mail?.textBody ?? '');
  expect(match, `${category ?? 'sign-in'} link in mail to ${email}`).toBeTruthy();
  return decodeURIComponent(match![1]!);
}

/** The token of the newest emailed link of one kind (`merchant.verify_email`, `merchant.password_reset`, …). */
export const latestLinkToken = (email: string, category: string) => latestLoginToken(email, category);

export interface Pair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

function pairOf(body: any): Pair {
  return { accessToken: body.accessToken, refreshToken: body.refreshToken, expiresIn: body.expiresIn };
}

/** A seller whose Owner confirmed the email link (so it may invite team members). */
export async function registerVerifiedSeller() {
  const seller = await registerSeller();
  const verificationToken = await latestLinkToken(seller.email, 'merchant.verify_email');
  const verified = await call('POST', '/api/MerchantAuth/VerifyEmail', { body: { verificationToken }, headers: freshIp() });
  expect(verified.status, verified.text).toBe(200);
  return seller;
}

/** Invites a person with a role and accepts the emailed invitation as they would; their first token pair. */
export async function joinTeam(inviterAccessToken: string, role: 'Owner' | 'Admin' | 'Developer' | 'Support' | 'ReadOnly') {
  const email = uniqueEmail(role.toLowerCase());
  const invited = await call('POST', '/api/MerchantTeam/Invitation', { key: inviterAccessToken, body: { email, role } });
  expect(invited.status, invited.text).toBe(201);
  const invitationToken = await latestLinkToken(email, 'merchant.invitation');
  const joined = await call('POST', '/api/MerchantAuth/AcceptInvitation', {
    body: { invitationToken, name: `${role} Person`, password: PASSWORD },
    headers: freshIp(),
  });
  expect(joined.status, joined.text).toBe(201);
  return { email, userId: joined.body.user.id as string, invitationToken, tokens: pairOf(joined.body) };
}
