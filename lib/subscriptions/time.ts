import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { testClocks } from '../db/schema';
import { now } from '../clock';

/**
 * The time a subscription lives on: the process clock (lib/clock.ts), or the frozen time of
 * the sandbox test clock its customer is attached to.
 */
export async function timeFor(db: Db, testClockId: string | null): Promise<Date> {
  if (!testClockId) return now();
  const [clock] = await db.select({ frozenTime: testClocks.frozenTime }).from(testClocks).where(eq(testClocks.id, testClockId));
  return clock ? clock.frozenTime : now();
}
