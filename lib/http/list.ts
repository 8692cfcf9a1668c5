import { z } from 'zod';
import { DateTime } from './schemas';

export const MAX_PAGE_SIZE = 100;

const PageNumber = z.coerce.number().int().min(1).max(1_000_000);

/**
 * Query schema of an L endpoint (DESIGN 4.6): paging, ordering by `createdAt` or the listed
 * fields, an inclusive creation window, plus the endpoint's own filters.
 */
export function listQuery<TOrder extends string, TFilters extends z.ZodRawShape = {}>(
  orderByFields: readonly [TOrder, ...TOrder[]],
  filters?: TFilters,
) {
  return z
    .strictObject({
      page: PageNumber.default(1),
      pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
      orderBy: z.enum(orderByFields).default(orderByFields[0]),
      orderDirection: z.enum(['asc', 'desc']).default('desc'),
      createdFrom: DateTime.optional(),
      createdTo: DateTime.optional(),
      ...(filters ?? ({} as TFilters)),
    })
    .refine((q) => createdWindowIsOrdered(q as { createdFrom?: Date; createdTo?: Date }), {
      message: 'createdFrom must not be after createdTo.',
      path: ['createdFrom'],
    });
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.int(),
    pageSize: z.int(),
    totalCount: z.int(),
    hasMore: z.boolean(),
  });
}

function createdWindowIsOrdered(query: { createdFrom?: Date; createdTo?: Date }): boolean {
  return !query.createdFrom || !query.createdTo || query.createdFrom <= query.createdTo;
}
