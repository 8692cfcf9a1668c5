import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memberLoginTokens } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { ApiError } from '../errors';
import { sendEmail } from '../email/send-email';
import { walletSignInEmail } from '../email/customer-emails';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locales';
import { findOrCreateMember } from '../members/members';
import { randomToken, sha256Hex } from '../secrets';
import { startSession, type TokenPair } from './sessions';
import { SIGN_IN_LIMITS, assertUnderLimit, consumeLimit, countAttempt } from './rate-limit';
import type { ClientInfo } from '../http/client-ip';
import { LOGIN_TOKEN_TTL_SECONDS } from './lifetimes';
import { safeWalletReturnPath } from './return-path';

export const MEMBER_VERIFY_PATH = '/member/verify';

/**
 * Mails a single-use wallet sign-in link. The answer is the same whether or not a wallet exists
 * for the address (a wallet is opened by its first verified sign-in). `returnPath`: a hosted
 * checkout to come back to after signing in; anything else is left out of the link. `locale`: the
 * language of the page (or the API request's Accept-Language) the link was asked for in.
 */
export async function requestMemberSignInLink(
  db: Db,
  input: { email: string; client: ClientInfo; returnPath?: string; locale?: Locale },
): Promise<{ expiresIn: number }> {
  await consumeLimit(db, SIGN_IN_LIMITS.requestsPerIp, { address: input.client.ip });
  await consumeLimit(db, SIGN_IN_LIMITS.linksPerEmail, input.email);
  const loginToken = `mlt_${randomToken(32)}`;
  const at = now();
  const expiresAt = new Date(at.getTime() + LOGIN_TOKEN_TTL_SECONDS * 1000);
  const returnPath = safeWalletReturnPath(input.returnPath);
  const link = `${config.publicUrl}${MEMBER_VERIFY_PATH}?token=${encodeURIComponent(loginToken)}${returnPath ? `&next=${encodeURIComponent(returnPath)}` : ''}`;
  await db.transaction(async (tx) => {
    await tx.insert(memberLoginTokens).values({
      id: newId('loginToken'),
      email: input.email.toLowerCase(),
      tokenHash: sha256Hex(loginToken),
      createdAt: at,
      expiresAt,
    });
    await sendEmail(
      tx,
      walletSignInEmail({ to: input.email, locale: input.locale ?? DEFAULT_LOCALE, link, loginToken, minutes: LOGIN_TOKEN_TTL_SECONDS / 60 }),
    );
  });
  return { expiresIn: LOGIN_TOKEN_TTL_SECONDS };
}

/** Exchanges a sign-in link's token (once, within 15 minutes) for a token pair. */
export async function verifyMemberSignInLink(db: Db, input: { loginToken: string; client: ClientInfo; invalidMessage?: string }): Promise<TokenPair> {
  await assertUnderLimit(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
  const pair = await db.transaction(async (tx) => {
    const [token] = await tx
      .update(memberLoginTokens)
      .set({ usedAt: now() })
      .where(and(eq(memberLoginTokens.tokenHash, sha256Hex(input.loginToken)), isNull(memberLoginTokens.usedAt), gt(memberLoginTokens.expiresAt, now())))
      .returning();
    if (!token) return undefined;
    const member = await findOrCreateMember(tx, token.email);
    return startSession(tx, { audience: 'member', subjectId: member.id });
  });
  if (!pair) {
    await countAttempt(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
    throw new ApiError('UNAUTHENTICATED', input.invalidMessage ?? 'This sign-in link is not valid: it was already used or has expired. Ask for a new one.');
  }
  return pair;
}
