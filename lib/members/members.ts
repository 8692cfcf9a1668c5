import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';

type MemberRow = typeof members.$inferSelect;

export function toMemberIdentity(row: MemberRow) {
  return { userType: 'Member' as const, id: row.id, email: row.email, createdAt: row.createdAt.toISOString() };
}

export async function findMemberById(db: Db, memberId: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.id, memberId));
  return row;
}

/** A wallet is opened by its first verified sign-in; later sign-ins find it by email (any case). */
export async function findOrCreateMember(tx: Db, email: string): Promise<MemberRow> {
  const at = now();
  await tx
    .insert(members)
    .values({ id: newId('member'), email: email.toLowerCase(), createdAt: at })
    .onConflictDoNothing();
  const [row] = await tx
    .update(members)
    .set({ lastSignInAt: at })
    .where(eq(sql`lower(${members.email})`, email.toLowerCase()))
    .returning();
  return row!;
}
