import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { merchants, sellerUsers, type SellerRole } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';

export type SellerUserRow = typeof sellerUsers.$inferSelect;

export async function createSellerUser(
  tx: Db,
  input: { merchantId: string; email: string; name: string; role: SellerRole; passwordHash: string; emailVerified: boolean },
): Promise<SellerUserRow> {
  const at = now();
  const [row] = await tx
    .insert(sellerUsers)
    .values({
      id: newId('sellerUser'),
      merchantId: input.merchantId,
      email: input.email.toLowerCase(),
      name: input.name,
      role: input.role,
      passwordHash: input.passwordHash,
      emailVerifiedAt: input.emailVerified ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return row!;
}

export async function findSellerUserByEmail(db: Db, email: string): Promise<SellerUserRow | undefined> {
  const [row] = await db
    .select()
    .from(sellerUsers)
    .where(eq(sql`lower(${sellerUsers.email})`, email.toLowerCase()));
  return row;
}

export async function findSellerUser(db: Db, userId: string): Promise<SellerUserRow | undefined> {
  const [row] = await db.select().from(sellerUsers).where(eq(sellerUsers.id, userId));
  return row;
}

/** A user of one seller account (tenant-scoped: another account's user is not found). */
export async function findAccountUser(db: Db, merchantId: string, userId: string): Promise<SellerUserRow | undefined> {
  const [row] = await db
    .select()
    .from(sellerUsers)
    .where(and(eq(sellerUsers.id, userId), eq(sellerUsers.merchantId, merchantId)));
  return row;
}

/** One query: the user still belongs to the account and the account is not suspended. */
export async function isActiveAccountUser(db: Db, merchantId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ status: merchants.status })
    .from(sellerUsers)
    .innerJoin(merchants, eq(merchants.id, sellerUsers.merchantId))
    .where(and(eq(sellerUsers.id, userId), eq(sellerUsers.merchantId, merchantId)));
  return row?.status === 'active';
}

export async function setSellerUserPassword(tx: Db, userId: string, passwordHash: string): Promise<void> {
  const at = now();
  await tx
    .update(sellerUsers)
    .set({ passwordHash, updatedAt: at, emailVerifiedAt: sql`coalesce(${sellerUsers.emailVerifiedAt}, ${at})` })
    .where(eq(sellerUsers.id, userId));
}

export async function markEmailVerified(tx: Db, userId: string): Promise<void> {
  const at = now();
  await tx
    .update(sellerUsers)
    .set({ emailVerifiedAt: sql`coalesce(${sellerUsers.emailVerifiedAt}, ${at})`, updatedAt: at })
    .where(eq(sellerUsers.id, userId));
}

/** The seller user as the sign-in APIs show it (never the password hash). */
export function toSellerUserResponse(row: SellerUserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    emailVerified: row.emailVerifiedAt !== null,
    twoFactorEnabled: row.twoFactorEnabledAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
