import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { merchants } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { hashPassword } from '../auth/passwords';

export type AccountType = 'Business' | 'Individual';

export async function createMerchant(
  db: Db,
  input: { email: string; name: string; accountType: AccountType; password: string },
) {
  const at = now();
  const [row] = await db
    .insert(merchants)
    .values({
      id: newId('merchant'),
      email: input.email.toLowerCase(),
      name: input.name,
      accountType: input.accountType,
      passwordHash: await hashPassword(input.password),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return row!;
}

export async function findMerchantByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(merchants)
    .where(eq(sql`lower(${merchants.email})`, email.toLowerCase()));
  return row;
}

export async function setMerchantStatus(db: Db, merchantId: string, status: 'active' | 'suspended') {
  await db.update(merchants).set({ status, updatedAt: now() }).where(eq(merchants.id, merchantId));
}

export async function findMerchantById(db: Db, merchantId: string) {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  return row;
}
