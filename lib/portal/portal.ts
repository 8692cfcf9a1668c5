import { and, count, eq, gt, gte, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, merchants, portalTokens } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { ApiError, invalidField } from '../errors';
import { sendEmail } from '../email/send-email';
import { portalLinkEmail } from '../email/customer-emails';
import { DEFAULT_LOCALE, emailLocale, type Locale } from '../i18n/locales';
import { resolveHostedDesign } from '../designs/hosted-design';
import { randomToken, sha256Hex } from '../secrets';

/** A portal link works once, for 15 minutes; a portal session lasts 30 minutes. */
export const PORTAL_LINK_TTL_MS = 15 * 60 * 1000;
export const PORTAL_SESSION_TTL_MS = 30 * 60 * 1000;
/** Links mailed per customer per 15 minutes. */
export const PORTAL_LINKS_PER_WINDOW = 5;

export const portalCookieName = 'pb_portal';
export const portalPath = (customerId: string) => `/portal/${customerId}`;

async function findCustomer(db: Db, customerId: string) {
  const [row] = await db
    .select({ customer: customers, sellerName: merchants.name, sellerStatus: merchants.status })
    .from(customers)
    .innerJoin(merchants, eq(merchants.id, customers.merchantId))
    .where(eq(customers.id, customerId));
  return row;
}

/**
 * Mails a single-use portal link to the email the seller has on file for the customer. The
 * answer is the same whether or not the customer exists or has an email, so the page reveals
 * nothing. There is deliberately no API endpoint for this: only the customer's inbox opens the portal.
 * Written in the customer's recorded language (from their checkout), else `pageLocale`, the
 * language of the portal page it was asked for on.
 */
export async function requestPortalLink(tx: Db, customerId: string, pageLocale: Locale = DEFAULT_LOCALE): Promise<void> {
  const found = await findCustomer(tx, customerId);
  if (!found?.customer.email || found.customer.status !== 'active') return;
  const [recent] = await tx
    .select({ value: count() })
    .from(portalTokens)
    .where(
      and(eq(portalTokens.customerId, customerId), eq(portalTokens.kind, 'link'), gte(portalTokens.createdAt, new Date(now().getTime() - PORTAL_LINK_TTL_MS))),
    );
  if ((recent?.value ?? 0) >= PORTAL_LINKS_PER_WINDOW) {
    throw new ApiError('RATE_LIMITED', 'Several links were sent in the last 15 minutes: use the latest one, or try again later.', {
      retryAfterSeconds: 900,
    });
  }
  const token = randomToken();
  await tx.insert(portalTokens).values({
    id: newId('portalLink'),
    merchantId: found.customer.merchantId,
    customerId,
    kind: 'link',
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now().getTime() + PORTAL_LINK_TTL_MS),
    createdAt: now(),
  });
  const link = `${config.publicUrl}${portalPath(customerId)}/verify?token=${encodeURIComponent(token)}`;
  const design = await resolveHostedDesign(tx, found.customer.merchantId);
  await sendEmail(
    tx,
    portalLinkEmail({ to: found.customer.email, locale: emailLocale(found.customer.locale, pageLocale), sellerName: found.sellerName, link, token, design }),
  );
}

/**
 * Verifies a portal link: the token must be this customer's, unused and unexpired, and the
 * typed email must be the customer's own (any case). A wrong email does not spend the link.
 * Returns a session token (to be kept in an httpOnly cookie scoped to the customer's portal path).
 */
export async function verifyPortalLink(tx: Db, customerId: string, token: string, typedEmail: string): Promise<string> {
  const invalid = () => new ApiError('UNAUTHENTICATED', 'This link is invalid, expired or already used. Ask for a new one.');
  const [link] = await tx
    .select()
    .from(portalTokens)
    .where(and(eq(portalTokens.tokenHash, sha256Hex(token)), eq(portalTokens.kind, 'link')))
    .for('update');
  if (!link || link.customerId !== customerId || link.usedAt || link.expiresAt <= now()) throw invalid();
  const found = await findCustomer(tx, customerId);
  if (!found?.customer.email || found.customer.email.trim().toLowerCase() !== typedEmail.trim().toLowerCase()) {
    throw invalidField('email', 'That is not the email this link was sent to.');
  }
  const used = await tx
    .update(portalTokens)
    .set({ usedAt: now() })
    .where(and(eq(portalTokens.id, link.id), isNull(portalTokens.usedAt)))
    .returning();
  if (used.length === 0) throw invalid();
  const session = randomToken();
  await tx.insert(portalTokens).values({
    id: newId('portalSession'),
    merchantId: link.merchantId,
    customerId,
    kind: 'session',
    tokenHash: sha256Hex(session),
    expiresAt: new Date(now().getTime() + PORTAL_SESSION_TTL_MS),
    createdAt: now(),
  });
  return session;
}

/** The customer a portal session token belongs to, when it is valid for exactly this customer. */
export async function portalSessionCustomer(db: Db, customerId: string, sessionToken: string | undefined) {
  if (!sessionToken) return undefined;
  const [session] = await db
    .select()
    .from(portalTokens)
    .where(
      and(
        eq(portalTokens.tokenHash, sha256Hex(sessionToken)),
        eq(portalTokens.kind, 'session'),
        eq(portalTokens.customerId, customerId),
        isNull(portalTokens.usedAt),
        gt(portalTokens.expiresAt, now()),
      ),
    );
  if (!session) return undefined;
  const found = await findCustomer(db, customerId);
  return found
    ? { customer: found.customer, sellerName: found.sellerName, sellerSuspended: found.sellerStatus === 'suspended', expiresAt: session.expiresAt }
    : undefined;
}

export async function endPortalSession(db: Db, sessionToken: string) {
  await db
    .update(portalTokens)
    .set({ usedAt: now() })
    .where(and(eq(portalTokens.tokenHash, sha256Hex(sessionToken)), eq(portalTokens.kind, 'session')));
}

/** Portal links and sessions are deleted once expired (only hashes are stored; an expired one opens nothing). */
export async function purgeExpiredPortalTokens(db: Db): Promise<number> {
  const rows = await db.delete(portalTokens).where(lt(portalTokens.expiresAt, now())).returning({ id: portalTokens.id });
  return rows.length;
}
