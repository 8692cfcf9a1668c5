import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { taxRates } from '../db/schema';
import { mapPage, paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { invalidField, notFound } from '../errors';
import type { CreateTaxRateBody, UpdateTaxRateBody } from './schemas';

type TaxRateRow = typeof taxRates.$inferSelect;

/** "20.50" and "20.5" are one rate: the percentage is kept without trailing zeros. */
function canonicalPercentage(value: string): string {
  if (!value.includes('.')) return String(Number.parseInt(value, 10));
  const [whole, fraction] = value.split('.');
  const trimmed = fraction!.replace(/0+$/, '');
  return `${Number.parseInt(whole!, 10)}${trimmed ? `.${trimmed}` : ''}`;
}

export function toTaxRateResponse(row: TaxRateRow) {
  return {
    id: row.id,
    displayName: row.displayName,
    description: row.description,
    percentage: row.percentage,
    inclusive: row.inclusive,
    country: row.country,
    jurisdiction: row.jurisdiction,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createTaxRate(tx: Db, merchantId: string, input: z.output<typeof CreateTaxRateBody>) {
  const at = now();
  const [row] = await tx
    .insert(taxRates)
    .values({
      id: newId('taxRate'),
      merchantId,
      displayName: input.displayName,
      description: input.description || null,
      percentage: canonicalPercentage(input.percentage),
      inclusive: input.inclusive,
      country: input.country ?? null,
      jurisdiction: input.jurisdiction ?? null,
      active: input.active,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return toTaxRateResponse(row!);
}

async function findTaxRateRow(db: Db, merchantId: string, taxRateId: string) {
  const [row] = await db
    .select()
    .from(taxRates)
    .where(and(eq(taxRates.id, taxRateId), eq(taxRates.merchantId, merchantId)));
  if (!row) throw notFound('tax rate', taxRateId);
  return row;
}

export async function getTaxRate(db: Db, merchantId: string, taxRateId: string) {
  return toTaxRateResponse(await findTaxRateRow(db, merchantId, taxRateId));
}

export async function listTaxRates(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'displayName'; active?: boolean; country?: string; inclusive?: boolean },
) {
  const page = await paginate(db, taxRates, {
    ...query,
    scope: [eq(taxRates.merchantId, merchantId)],
    where: [
      query.active === undefined ? undefined : eq(taxRates.active, query.active),
      query.inclusive === undefined ? undefined : eq(taxRates.inclusive, query.inclusive),
      query.country ? eq(taxRates.country, query.country) : undefined,
    ],
    orderBy: [query.orderBy === 'displayName' ? taxRates.displayName : taxRates.createdAt, taxRates.id],
  });
  return mapPage(page, toTaxRateResponse);
}

export async function updateTaxRate(tx: Db, merchantId: string, taxRateId: string, input: z.output<typeof UpdateTaxRateBody>) {
  await findTaxRateRow(tx, merchantId, taxRateId);
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const [row] = await tx
    .update(taxRates)
    .set({ ...changes, updatedAt: now() })
    .where(and(eq(taxRates.id, taxRateId), eq(taxRates.merchantId, merchantId)))
    .returning();
  return toTaxRateResponse(row!);
}

/** Tax rates named for a price or as the seller's defaults: the seller's own, and active. */
export async function requireTaxRates(db: Db, merchantId: string, ids: readonly string[], field: string) {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: taxRates.id, active: taxRates.active })
    .from(taxRates)
    .where(and(eq(taxRates.merchantId, merchantId), inArray(taxRates.id, [...ids])));
  for (const [index, id] of ids.entries()) {
    const rate = found.find((row) => row.id === id);
    if (!rate) throw invalidField(`${field}.${index}`, `No tax rate ${id}.`);
    if (!rate.active) throw invalidField(`${field}.${index}`, `Tax rate ${id} is archived.`);
  }
}
