import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customerCustomValues } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { now } from '../clock';
import { ApiError } from '../errors';
import { findCustomerRow } from './customers';
import { MAX_CUSTOM_VALUES } from './schemas';

type CustomValueRow = typeof customerCustomValues.$inferSelect;

export function toCustomValueResponse(row: CustomValueRow) {
  return { key: row.key, value: row.value, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function listCustomValues(db: Db, merchantId: string, customerId: string, query: PageRequest & { orderBy: 'createdAt' | 'key' }) {
  await findCustomerRow(db, merchantId, customerId);
  const page = await paginate(db, customerCustomValues, {
    ...query,
    scope: [eq(customerCustomValues.merchantId, merchantId), eq(customerCustomValues.customerId, customerId)],
    where: [],
    orderBy: [query.orderBy === 'key' ? customerCustomValues.key : customerCustomValues.createdAt, customerCustomValues.key],
  });
  return mapPage(page, toCustomValueResponse);
}

export async function createCustomValue(tx: Db, merchantId: string, customerId: string, input: { key: string; value: string }) {
  await findCustomerRow(tx, merchantId, customerId);
  const [stored] = await tx.select({ value: count() }).from(customerCustomValues).where(eq(customerCustomValues.customerId, customerId));
  if ((stored?.value ?? 0) >= MAX_CUSTOM_VALUES) {
    throw new ApiError('INVALID_STATE', `A customer holds at most ${MAX_CUSTOM_VALUES} custom values.`);
  }
  const at = now();
  const [row] = await tx
    .insert(customerCustomValues)
    .values({ merchantId, customerId, key: input.key, value: input.value, createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    throw new ApiError('CONFLICT', `Custom value '${input.key}' already exists; use PUT to change it.`, {
      errors: [{ path: 'key', message: 'Already exists.' }],
    });
  }
  return toCustomValueResponse(row);
}

export async function updateCustomValue(tx: Db, merchantId: string, customerId: string, input: { key: string; value: string }) {
  await findCustomerRow(tx, merchantId, customerId);
  const [row] = await tx
    .update(customerCustomValues)
    .set({ value: input.value, updatedAt: now() })
    .where(and(eq(customerCustomValues.customerId, customerId), eq(customerCustomValues.key, input.key)))
    .returning();
  if (!row) {
    throw new ApiError('NOT_FOUND', `Customer has no custom value '${input.key}'; use POST to create it.`, {
      errors: [{ path: 'key', message: 'No such custom value.' }],
    });
  }
  return toCustomValueResponse(row);
}
