import { z } from 'zod';
import { DateTime } from './schemas';

export const MAX_PAGE_SIZE = 100;

const PageNumber = z.coerce.number().int().min(1).max(1_000_000);

// The shared list parameters are one component each in the OpenAPI document (`param.id`).
const PAGE = PageNumber.default(1).meta({ param: { id: 'Page', description: 'Page number, from 1.' } });
const PAGE_SIZE = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20).meta({ param: { id: 'PageSize', description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` } });
const ORDER_DIRECTION = z.enum(['asc', 'desc']).default('desc').meta({ param: { id: 'OrderDirection' } });
const CREATED_FROM = DateTime.optional().meta({ param: { id: 'CreatedFrom', description: 'Created at or after this time (inclusive).' } });
const CREATED_TO = DateTime.optional().meta({ param: { id: 'CreatedTo', description: 'Created at or before this time (inclusive).' } });

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
      page: PAGE,
      pageSize: PAGE_SIZE,
      orderBy: z.enum(orderByFields).default(orderByFields[0]),
      orderDirection: ORDER_DIRECTION,
      createdFrom: CREATED_FROM,
      createdTo: CREATED_TO,
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
