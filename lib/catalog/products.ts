import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { products } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, recordUpdated } from '../events/record-event';
import { notFound } from '../errors';
import type { CreateProductBody, UpdateProductBody } from './schemas';

type ProductRow = typeof products.$inferSelect;

export function toProductResponse(row: ProductRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createProduct(tx: Db, merchantId: string, input: z.output<typeof CreateProductBody>) {
  const at = now();
  const [row] = await tx
    .insert(products)
    .values({ id: newId('product'), merchantId, ...input, description: input.description ?? null, createdAt: at, updatedAt: at })
    .returning();
  const product = toProductResponse(row!);
  await recordEvent(tx, { merchantId, type: 'product.created', object: product });
  return product;
}

export async function findProductRow(db: Db, merchantId: string, productId: string, fieldPath?: string): Promise<ProductRow> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.merchantId, merchantId)));
  if (!row) throw notFound('product', productId, fieldPath);
  return row;
}

export async function getProduct(db: Db, merchantId: string, productId: string) {
  return toProductResponse(await findProductRow(db, merchantId, productId));
}

export async function listProducts(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt' | 'name'; active?: boolean }) {
  const page = await paginate(db, products, {
    ...query,
    scope: [eq(products.merchantId, merchantId)],
    where: [query.active === undefined ? undefined : eq(products.active, query.active)],
    orderBy: [query.orderBy === 'name' ? products.name : products.createdAt, products.id],
  });
  return mapPage(page, toProductResponse);
}

export async function updateProduct(tx: Db, merchantId: string, productId: string, input: z.output<typeof UpdateProductBody>) {
  const current = await findProductRow(tx, merchantId, productId);
  const [row] = await tx
    .update(products)
    .set({ ...input, updatedAt: now() })
    .where(and(eq(products.id, productId), eq(products.merchantId, merchantId)))
    .returning();
  const product = toProductResponse(row!);
  await recordUpdated(tx, { merchantId, type: 'product.updated', before: toProductResponse(current), after: product });
  return product;
}
