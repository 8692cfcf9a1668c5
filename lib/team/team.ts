import { recordAudit } from '../audit/audit-log';
import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { merchants, sellerInvitations, sellerUsers, type SellerRole } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { ApiError, notFound } from '../errors';
import { sendEmail } from '../email/send-email';
import { randomToken, sha256Hex } from '../secrets';
import { hashPassword } from '../passwords';
import { endUserSessions, startSession, type TokenPair } from '../auth/sessions';
import { revokeApiKeysCreatedBy } from '../auth/api-keys';
import { SIGN_IN_LIMITS, assertUnderLimit, consumeLimit, countAttempt } from '../auth/rate-limit';
import type { ClientInfo } from '../http/client-ip';
import { INVITATION_TTL_SECONDS } from '../auth/lifetimes';
import { ROLE_LABELS } from '../merchants/roles';
import { createSellerUser, findAccountUser, findSellerUserByEmail, toSellerUserResponse, type SellerUserRow } from '../merchants/users';
import { findMerchantById } from '../merchants/merchants';

export const ACCEPT_INVITE_PATH = '/merchant/accept-invite';

/** The acting team member (from the session, never the request body). */
export interface TeamActor {
  merchantId: string;
  user: SellerUserRow;
}

type InvitationRow = typeof sellerInvitations.$inferSelect;

export function toInvitationResponse(row: InvitationRow) {
  return { id: row.id, email: row.email, role: row.role, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
}

/** The account's members (Owners first) and its open invitations. */
export async function listTeam(db: Db, merchantId: string) {
  const [members, invitations] = await Promise.all([
    db
      .select()
      .from(sellerUsers)
      .where(eq(sellerUsers.merchantId, merchantId))
      .orderBy(sql`case ${sellerUsers.role} when 'Owner' then 0 when 'Admin' then 1 else 2 end`, asc(sellerUsers.createdAt)),
    db
      .select()
      .from(sellerInvitations)
      .where(
        and(
          eq(sellerInvitations.merchantId, merchantId),
          isNull(sellerInvitations.acceptedAt),
          isNull(sellerInvitations.revokedAt),
          gt(sellerInvitations.expiresAt, now()),
        ),
      )
      .orderBy(asc(sellerInvitations.createdAt)),
  ]);
  return { members: members.map(toSellerUserResponse), invitations: invitations.map(toInvitationResponse) };
}

// Team changes of one account run one at a time, so "the account keeps an Owner" cannot be
// broken by two concurrent removals or demotions.
async function lockAccount(tx: Db, merchantId: string) {
  await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for('update');
}

/** Only an Owner may give, take or touch the Owner role. */
function assertMayManage(actor: TeamActor, role: SellerRole) {
  if (role === 'Owner' && actor.user.role !== 'Owner') throw new ApiError('FORBIDDEN', 'Only an Owner can invite, change or remove Owners.');
}

/**
 * Invites a person by email to the account with a role: a single-use link (hashed, 7 days) by
 * email. The inviter's own email must be verified; an address that already has a seller login
 * cannot be invited (one login, one account); a new invitation to the same address replaces the
 * open one.
 */
export async function inviteMember(tx: Db, actor: TeamActor, input: { email: string; role: SellerRole }) {
  assertMayManage(actor, input.role);
  if (!actor.user.emailVerifiedAt) {
    throw new ApiError('FORBIDDEN', 'Confirm your email address before inviting team members: use the link we sent you, or resend it from the banner.');
  }
  await consumeLimit(tx, SIGN_IN_LIMITS.invitationsPerAccount, actor.merchantId);
  await lockAccount(tx, actor.merchantId);
  const email = input.email.toLowerCase();
  if (await findSellerUserByEmail(tx, email)) {
    throw new ApiError('CONFLICT', 'This address already signs in to a Paybase seller account; each login belongs to one account.', {
      errors: [{ path: 'email', message: 'Already has a seller login.' }],
    });
  }
  const at = now();
  await tx
    .update(sellerInvitations)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sellerInvitations.merchantId, actor.merchantId),
        eq(sellerInvitations.email, email),
        isNull(sellerInvitations.acceptedAt),
        isNull(sellerInvitations.revokedAt),
      ),
    );
  const token = `inv_${randomToken(32)}`;
  const [row] = await tx
    .insert(sellerInvitations)
    .values({
      id: newId('invitation'),
      merchantId: actor.merchantId,
      email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedByUserId: actor.user.id,
      createdAt: at,
      expiresAt: new Date(at.getTime() + INVITATION_TTL_SECONDS * 1000),
    })
    .returning();
  const account = (await findMerchantById(tx, actor.merchantId))!;
  const link = `${config.publicUrl}${ACCEPT_INVITE_PATH}?token=${encodeURIComponent(token)}`;
  await sendEmail(tx, {
    to: email,
    subject: `${actor.user.name} invited you to ${account.name} on Paybase`,
    category: 'merchant.invitation',
    text: [
      `${actor.user.name} (${actor.user.email}) invited you to join ${account.name} on Paybase as ${ROLE_LABELS[input.role]}.`,
      '',
      link,
      '',
      'The link works once and expires in 7 days. If you did not expect it, ignore this email.',
      '',
      `Invitation code (for apps): ${token}`,
    ].join('\n'),
    html: `<p>${escapeHtml(actor.user.name)} invited you to join ${escapeHtml(account.name)} on Paybase as ${ROLE_LABELS[input.role]}.</p><p><a href="${link}">Accept the invitation</a></p><p>The link works once and expires in 7 days. If you did not expect it, ignore this email.</p>`,
    secrets: [token],
  });
  await recordAudit(tx, {
    merchantId: actor.merchantId,
    action: 'team.member_invited',
    target: { kind: 'invitation', id: row!.id },
    metadata: { email, role: input.role },
  });
  return toInvitationResponse(row!);
}

export async function revokeInvitation(tx: Db, actor: TeamActor, invitationId: string) {
  const [row] = await tx
    .select()
    .from(sellerInvitations)
    .where(
      and(
        eq(sellerInvitations.id, invitationId),
        eq(sellerInvitations.merchantId, actor.merchantId),
        isNull(sellerInvitations.acceptedAt),
        isNull(sellerInvitations.revokedAt),
      ),
    );
  if (!row) throw notFound('invitation', invitationId);
  assertMayManage(actor, row.role);
  await tx
    .update(sellerInvitations)
    .set({ revokedAt: now() })
    .where(and(eq(sellerInvitations.id, invitationId), eq(sellerInvitations.merchantId, actor.merchantId)));
  await recordAudit(tx, {
    merchantId: actor.merchantId,
    action: 'team.invitation_revoked',
    target: { kind: 'invitation', id: invitationId },
    metadata: { email: row.email, role: row.role },
  });
}

/**
 * Accepts an invitation: creates the member's login (its email counts as verified: the link
 * proved it) and signs it in. A used, revoked or expired invitation → 401.
 */
export async function acceptInvitation(
  db: Db,
  input: { invitationToken: string; name: string; password: string; client: ClientInfo },
): Promise<{ user: SellerUserRow; tokens: TokenPair }> {
  await assertUnderLimit(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
  // A dead invitation is refused before the (deliberately slow) password hash.
  const passwordHash = (await findLiveInvitation(db, input.invitationToken)) ? await hashPassword(input.password) : undefined;
  const outcome = await db.transaction(async (tx) => {
    if (!passwordHash) return undefined;
    const [invitation] = await tx
      .update(sellerInvitations)
      .set({ acceptedAt: now() })
      .where(
        and(
          eq(sellerInvitations.tokenHash, sha256Hex(input.invitationToken)),
          isNull(sellerInvitations.acceptedAt),
          isNull(sellerInvitations.revokedAt),
          gt(sellerInvitations.expiresAt, now()),
        ),
      )
      .returning();
    if (!invitation) return undefined;
    const account = await findMerchantById(tx, invitation.merchantId);
    if (account?.status !== 'active') return undefined;
    if (await findSellerUserByEmail(tx, invitation.email)) {
      throw new ApiError('CONFLICT', 'This address already signs in to a Paybase seller account: sign in instead.');
    }
    const user = await createSellerUser(tx, {
      merchantId: invitation.merchantId,
      email: invitation.email,
      name: input.name,
      role: invitation.role,
      passwordHash,
      emailVerified: true,
    });
    await recordAudit(tx, {
      merchantId: user.merchantId,
      action: 'team.invitation_accepted',
      actor: { kind: 'seller_user', id: user.id, label: user.email },
      target: { kind: 'invitation', id: invitation.id },
      metadata: { role: invitation.role },
    });
    return { user, tokens: await startSession(tx, { audience: 'merchant', subjectId: user.merchantId, userId: user.id }) };
  });
  if (!outcome) {
    await countAttempt(db, SIGN_IN_LIMITS.failuresPerIp, { address: input.client.ip });
    throw new ApiError('UNAUTHENTICATED', 'This invitation is not valid: it was already used, revoked, or has expired. Ask for a new one.');
  }
  return outcome;
}

async function findLiveInvitation(db: Db, token: string) {
  const [row] = await db
    .select({ id: sellerInvitations.id })
    .from(sellerInvitations)
    .where(
      and(
        eq(sellerInvitations.tokenHash, sha256Hex(token)),
        isNull(sellerInvitations.acceptedAt),
        isNull(sellerInvitations.revokedAt),
        gt(sellerInvitations.expiresAt, now()),
      ),
    );
  return row;
}

async function ownerCount(tx: Db, merchantId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(sellerUsers)
    .where(and(eq(sellerUsers.merchantId, merchantId), eq(sellerUsers.role, 'Owner')));
  return row!.count;
}

const lastOwner = () => new ApiError('INVALID_STATE', 'The account must keep an Owner: make someone else Owner first.');

export async function changeMemberRole(tx: Db, actor: TeamActor, userId: string, role: SellerRole) {
  await lockAccount(tx, actor.merchantId);
  const member = await findAccountUser(tx, actor.merchantId, userId);
  if (!member) throw notFound('team member', userId);
  assertMayManage(actor, member.role);
  assertMayManage(actor, role);
  if (member.role === 'Owner' && role !== 'Owner' && (await ownerCount(tx, actor.merchantId)) <= 1) throw lastOwner();
  const [row] = await tx
    .update(sellerUsers)
    .set({ role, updatedAt: now() })
    .where(and(eq(sellerUsers.id, userId), eq(sellerUsers.merchantId, actor.merchantId)))
    .returning();
  await recordAudit(tx, {
    merchantId: actor.merchantId,
    action: 'team.role_changed',
    target: { kind: 'seller_user', id: userId },
    metadata: { email: member.email, from: member.role, to: role },
  });
  return toSellerUserResponse(row!);
}

/**
 * Removes a member: the login is deleted, every session of it ends and every API key it created
 * is revoked in the same transaction, so its next refresh, its next access-token call and the
 * next call with one of its keys answer 401.
 */
export async function removeMember(tx: Db, actor: TeamActor, userId: string): Promise<void> {
  await lockAccount(tx, actor.merchantId);
  const member = await findAccountUser(tx, actor.merchantId, userId);
  if (!member) throw notFound('team member', userId);
  assertMayManage(actor, member.role);
  if (member.role === 'Owner' && (await ownerCount(tx, actor.merchantId)) <= 1) throw lastOwner();
  await endUserSessions(tx, { userId, reason: 'member_removed' });
  await revokeApiKeysCreatedBy(tx, { merchantId: actor.merchantId, userId });
  await tx.delete(sellerUsers).where(and(eq(sellerUsers.id, userId), eq(sellerUsers.merchantId, actor.merchantId)));
  await recordAudit(tx, {
    merchantId: actor.merchantId,
    action: 'team.member_removed',
    target: { kind: 'seller_user', id: userId },
    metadata: { email: member.email, role: member.role },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An Owner requires (or stops requiring) two-factor sign-in for every member. Turning it on needs
 * the Owner's own two-factor on; members without it can then only set it up (every other page
 * and call answers 403 until they do), and password-only API sign-ins are refused.
 */
export async function setTeamTwoFactorRequirement(tx: Db, actor: TeamActor, required: boolean): Promise<void> {
  if (required && !actor.user.twoFactorEnabledAt) {
    throw new ApiError('INVALID_STATE', 'Turn on two-factor sign-in for yourself first, so you are not locked out.');
  }
  await tx.update(merchants).set({ requireTwoFactor: required, updatedAt: now() }).where(eq(merchants.id, actor.merchantId));
  await recordAudit(tx, {
    merchantId: actor.merchantId,
    action: 'team.two_factor_requirement_changed',
    target: { kind: 'merchant', id: actor.merchantId },
    metadata: { required },
  });
}

/** Invitations are kept 30 days past their expiry (accepted, revoked or not), then deleted; the audit log keeps who invited whom. */
export const INVITATION_RETENTION_DAYS = 30;

export async function purgeOldInvitations(db: Db): Promise<number> {
  const rows = await db
    .delete(sellerInvitations)
    .where(lt(sellerInvitations.expiresAt, new Date(now().getTime() - INVITATION_RETENTION_DAYS * 86_400_000)))
    .returning({ id: sellerInvitations.id });
  return rows.length;
}
