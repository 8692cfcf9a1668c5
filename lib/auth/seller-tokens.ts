import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sellerUserTokens, type SellerTokenPurpose } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { randomToken, sha256Hex } from '../secrets';

const PREFIX: Record<SellerTokenPurpose, string> = { email_verification: 'emv_', password_reset: 'prt_', two_factor_challenge: 'tfc_' };

/**
 * Issues a single-use token for a seller user (stored as SHA-256 only). Older unused tokens of
 * the same purpose stop working, so only the newest emailed link is live.
 */
export async function issueSellerToken(tx: Db, input: { userId: string; purpose: SellerTokenPurpose; ttlSeconds: number }): Promise<string> {
  const token = `${PREFIX[input.purpose]}${randomToken(32)}`;
  const at = now();
  await spendOpenTokens(tx, input.userId, input.purpose);
  await tx.insert(sellerUserTokens).values({
    id: newId('sellerUserToken'),
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: sha256Hex(token),
    createdAt: at,
    expiresAt: new Date(at.getTime() + input.ttlSeconds * 1000),
  });
  return token;
}

/**
 * Spends a token: one conditional update marks it used only if it is unused and unexpired, so
 * a link works once even under concurrent clicks. Undefined when it does not (any more).
 */
export async function consumeSellerToken(tx: Db, input: { token: string; purpose: SellerTokenPurpose }): Promise<{ userId: string } | undefined> {
  const at = now();
  const [row] = await tx
    .update(sellerUserTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(sellerUserTokens.tokenHash, sha256Hex(input.token)),
        eq(sellerUserTokens.purpose, input.purpose),
        isNull(sellerUserTokens.usedAt),
        gt(sellerUserTokens.expiresAt, at),
      ),
    )
    .returning({ userId: sellerUserTokens.userId });
  return row;
}

export async function spendOpenTokens(tx: Db, userId: string, purpose: SellerTokenPurpose): Promise<void> {
  await tx
    .update(sellerUserTokens)
    .set({ usedAt: now() })
    .where(and(eq(sellerUserTokens.userId, userId), eq(sellerUserTokens.purpose, purpose), isNull(sellerUserTokens.usedAt)));
}

/** Whether a token is still live (unused, unexpired), without spending it: a cheap check before slow work. */
export async function isLiveSellerToken(db: Db, input: { token: string; purpose: SellerTokenPurpose }): Promise<boolean> {
  const [row] = await db
    .select({ id: sellerUserTokens.id })
    .from(sellerUserTokens)
    .where(
      and(
        eq(sellerUserTokens.tokenHash, sha256Hex(input.token)),
        eq(sellerUserTokens.purpose, input.purpose),
        isNull(sellerUserTokens.usedAt),
        gt(sellerUserTokens.expiresAt, now()),
      ),
    );
  return Boolean(row);
}
