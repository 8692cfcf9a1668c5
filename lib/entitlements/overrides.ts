import { getTableColumns, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { entitlementOverrides } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent } from '../events/record-event';
import { findCustomerRow } from '../customers/customers';
import type { EntitlementOverrideBody } from './schemas';

type OverrideRow = typeof entitlementOverrides.$inferSelect;

export function toEntitlementOverrideResponse(row: OverrideRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    feature: row.feature,
    allowed: row.allowed,
    limit: row.limit,
    limitAmount: row.limitAmount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Sets the customer's override for one feature, replacing any earlier one; the override wins
 * over the policies of the prices they subscribe to. Emits `entitlement.changed`.
 */
export async function setEntitlementOverride(tx: Db, merchantId: string, customerId: string, input: z.output<typeof EntitlementOverrideBody>) {
  await findCustomerRow(tx, merchantId, customerId);
  const at = now();
  const values = { allowed: input.allowed, limit: input.limit ?? null, limitAmount: input.limitAmount ?? null, updatedAt: at };
  const [row] = await tx
    .insert(entitlementOverrides)
    .values({ id: newId('entitlementOverride'), merchantId, customerId, feature: input.feature, createdAt: at, ...values })
    .onConflictDoUpdate({ target: [entitlementOverrides.customerId, entitlementOverrides.feature], set: values })
    // xmax = 0 only on a freshly inserted row version: tells create from replace.
    .returning({ ...getTableColumns(entitlementOverrides), inserted: sql<boolean>`(xmax = 0)` });
  const override = toEntitlementOverrideResponse(row!);
  await recordEvent(tx, { merchantId, type: 'entitlement.changed', object: override });
  return { override, created: row!.inserted };
}
