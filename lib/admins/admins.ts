import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { hashPassword } from '../passwords';

/** Creates the platform admin on first start; an existing admin keeps its password. */
export async function ensureAdmin(db: Db, input: { name: string; password: string }) {
  const [existing] = await db.select().from(admins).where(eq(admins.name, input.name));
  if (existing) return existing;
  const [row] = await db
    .insert(admins)
    .values({ id: newId('admin'), name: input.name, passwordHash: await hashPassword(input.password), createdAt: now() })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function findAdminByName(db: Db, name: string) {
  const [row] = await db.select().from(admins).where(eq(admins.name, name));
  return row;
}

export async function findAdminById(db: Db, adminId: string) {
  const [row] = await db.select().from(admins).where(eq(admins.id, adminId));
  return row;
}

export function toAdminIdentity(row: typeof admins.$inferSelect) {
  return { userType: 'Admin' as const, id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}
