import { and, eq, inArray, sql } from 'drizzle-orm';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import type { Db } from '../db/client';
import { merchants } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { hashPassword } from '../passwords';
import { createSellerUser } from './users';
import { merchantStateMachine } from './merchant-states';

export type AccountType = 'Business' | 'Individual';

/**
 * Opens a seller account and its Owner, the person who signed up (same email, the password
 * hashed). The account's email stays its contact address.
 */
export async function createMerchant(db: Db, input: { email: string; name: string; accountType: AccountType; password: string; emailVerified?: boolean }) {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const at = now();
    const [row] = await tx
      .insert(merchants)
      .values({ id: newId('merchant'), email: input.email.toLowerCase(), name: input.name, accountType: input.accountType, createdAt: at, updatedAt: at })
      .returning();
    const owner = await createSellerUser(tx, {
      merchantId: row!.id,
      email: input.email,
      name: input.name,
      role: 'Owner',
      passwordHash,
      emailVerified: input.emailVerified ?? false,
    });
    return Object.assign(row!, { owner });
  });
}

export async function findMerchantByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(merchants)
    .where(eq(sql`lower(${merchants.email})`, email.toLowerCase()));
  return row;
}

/** Suspends or reinstates (merchant-states.ts): 409 INVALID_STATE unless the seller may move to `status`. */
export async function setMerchantStatus(db: Db, merchantId: string, status: 'active' | 'suspended') {
  const [moved] = await db
    .update(merchants)
    .set({ status, updatedAt: now() })
    .where(and(eq(merchants.id, merchantId), inArray(merchants.status, merchantStateMachine.sourcesOf(status))))
    .returning({ id: merchants.id });
  // The seller exists (the callers found it), so it is in `status` already.
  if (!moved) throw merchantStateMachine.refusal(status, status, `Seller ${merchantId}`, `it is ${status} already`);
}

export type MerchantRow = typeof merchants.$inferSelect;

export async function findMerchantById(db: Db, merchantId: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  return row;
}

/** The seller as the sign-in APIs and the admin console show it (never the password hash). */
export function toMerchantResponse(row: MerchantRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    accountType: row.accountType,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toMerchantIdentity(row: MerchantRow) {
  return { userType: 'Merchant' as const, ...toMerchantResponse(row) };
}

export async function listMerchants(db: Db, query: PageRequest & { orderBy: 'createdAt' | 'name' | 'email'; status?: 'active' | 'suspended'; email?: string }) {
  const page = await paginate(db, merchants, {
    ...query,
    scope: [],
    where: [
      query.status ? eq(merchants.status, query.status) : undefined,
      query.email ? sql`lower(${merchants.email}) like ${`%${query.email.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`}` : undefined,
    ],
    orderBy: [{ createdAt: merchants.createdAt, name: merchants.name, email: merchants.email }[query.orderBy], merchants.id],
  });
  return mapPage(page, toMerchantResponse);
}

/** Sets (or clears, with null) the most a Support member may refund at once. */
export async function setSupportRefundLimit(tx: Db, merchantId: string, limit: { amount: number; currency: string } | null) {
  await tx
    .update(merchants)
    .set({ supportRefundLimit: limit?.amount ?? null, supportRefundLimitCurrency: limit?.currency ?? null, updatedAt: now() })
    .where(eq(merchants.id, merchantId));
}
