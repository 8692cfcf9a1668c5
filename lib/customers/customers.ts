import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { customers } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, recordUpdated } from '../events/record-event';
import { ApiError, notFound } from '../errors';
import type { CreateCustomerBody, UpdateCustomerBody } from './schemas';
import { customerStateMachine } from './customer-states';

export type CustomerRow = typeof customers.$inferSelect;

export function toCustomerResponse(row: CustomerRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    externalId: row.externalId,
    status: row.status,
    metadata: row.metadata,
    address: row.address,
    taxId: row.taxId,
    taxExempt: row.taxExempt,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A new customer; `taxExempt` defaults to `none` for callers other than the API (checkout, the portal). */
export async function createCustomer(
  tx: Db,
  merchantId: string,
  input: Omit<z.output<typeof CreateCustomerBody>, 'taxExempt'> & { taxExempt?: z.output<typeof CreateCustomerBody>['taxExempt'] },
) {
  await assertExternalIdFree(tx, merchantId, input.externalId);
  const at = now();
  const [row] = await tx
    .insert(customers)
    .values({
      id: newId('customer'),
      merchantId,
      email: input.email ?? null,
      name: input.name ?? null,
      externalId: input.externalId ?? null,
      status: customerStateMachine.start(input.status),
      metadata: input.metadata,
      address: input.address ?? null,
      taxId: input.taxId ?? null,
      taxExempt: input.taxExempt ?? 'none',
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const customer = toCustomerResponse(row!);
  await recordEvent(tx, { merchantId, type: 'customer.created', object: customer });
  return customer;
}

export async function findCustomerRow(
  db: Db,
  merchantId: string,
  customerId: string,
  fieldPath?: string,
  options: { forUpdate?: boolean } = {},
): Promise<CustomerRow> {
  const query = db
    .select()
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('customer', customerId, fieldPath);
  return row;
}

/** A customer a new charge or subscription names by id: an archived customer is never charged again (409). */
export async function findChargeableCustomerRow(db: Db, merchantId: string, customerId: string, fieldPath: string): Promise<CustomerRow> {
  return chargeableCustomer(await findCustomerRow(db, merchantId, customerId, fieldPath), customerId, fieldPath);
}

/** `findChargeableCustomerRow`'s answer from a row read by a caller's own statement. */
export function chargeableCustomer(row: CustomerRow | null | undefined, customerId: string, fieldPath: string): CustomerRow {
  if (!row) throw notFound('customer', customerId, fieldPath);
  if (row.status === 'archived') {
    throw new ApiError('INVALID_STATE', `Customer ${row.id} is archived and cannot be charged; set its status to active first.`, {
      errors: [{ path: fieldPath, message: 'The customer is archived.' }],
      extra: { state: row.status },
    });
  }
  return row;
}

/** The merchant's most recent active customer with this email (case-insensitive), if any. */
export async function findCustomerByEmail(db: Db, merchantId: string, email: string): Promise<CustomerRow | undefined> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.merchantId, merchantId), eq(customers.status, 'active'), sql`lower(${customers.email}) = ${email.toLowerCase()}`))
    .orderBy(desc(customers.createdAt))
    .limit(1);
  return row;
}

/** The merchant's customers with these ids (for labelling lists), keyed by id. */
export async function customersByIds(db: Db, merchantId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<string, ReturnType<typeof toCustomerResponse>>();
  const rows = await db
    .select()
    .from(customers)
    .where(and(eq(customers.merchantId, merchantId), inArray(customers.id, unique)));
  return new Map(rows.map((row) => [row.id, toCustomerResponse(row)]));
}

/** Ids of every customer record of the merchant with this email (case-insensitive), any status. */
export async function customerIdsByEmail(db: Db, merchantId: string, email: string): Promise<string[]> {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.merchantId, merchantId), sql`lower(${customers.email}) = ${email.toLowerCase()}`));
  return rows.map((row) => row.id);
}

export async function getCustomer(db: Db, merchantId: string, customerId: string) {
  return toCustomerResponse(await findCustomerRow(db, merchantId, customerId));
}

export async function listCustomers(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'name' | 'email'; email?: string; externalId?: string; status?: 'active' | 'archived' },
) {
  const page = await paginate(db, customers, {
    ...query,
    scope: [eq(customers.merchantId, merchantId)],
    where: [
      query.email ? sql`lower(${customers.email}) = ${query.email.toLowerCase()}` : undefined,
      query.externalId ? eq(customers.externalId, query.externalId) : undefined,
      query.status ? eq(customers.status, query.status) : undefined,
    ],
    orderBy: [{ createdAt: customers.createdAt, name: customers.name, email: customers.email }[query.orderBy], customers.id],
  });
  return mapPage(page, toCustomerResponse);
}

export async function updateCustomer(tx: Db, merchantId: string, customerId: string, input: z.output<typeof UpdateCustomerBody>) {
  const current = await findCustomerRow(tx, merchantId, customerId, undefined, { forUpdate: true });
  if (input.status && input.status !== current.status) customerStateMachine.assertTransition(current.status, input.status, `Customer ${current.id}`);
  if (input.externalId && input.externalId !== current.externalId) await assertExternalIdFree(tx, merchantId, input.externalId);
  const [row] = await tx
    .update(customers)
    .set({ ...input, updatedAt: now() })
    .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchantId)))
    .returning();
  const customer = toCustomerResponse(row!);
  await recordUpdated(tx, { merchantId, type: 'customer.updated', before: toCustomerResponse(current), after: customer });
  return customer;
}

async function assertExternalIdFree(db: Db, merchantId: string, externalId: string | null | undefined) {
  if (!externalId) return;
  const [existing] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.merchantId, merchantId), eq(customers.externalId, externalId)));
  if (existing) {
    throw new ApiError('CONFLICT', `Customer ${existing.id} already has externalId '${externalId}'.`, {
      errors: [{ path: 'externalId', message: 'Already used by another customer.' }],
    });
  }
}
