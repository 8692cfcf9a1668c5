import { z } from 'zod';
import { DateTime } from './schemas';

export const MAX_PAGE_SIZE = 100;

const PageNumber = z.coerce.number().int().min(1).max(1_000_000);

// The shared list parameters are one component each in the OpenAPI document (`param.id`).
const PAGE = PageNumber.optional().meta({ param: { id: 'Page', description: 'Page number, from 1 (default 1). Not with `startingAfter` or `endingBefore`.' } });
const PAGE_SIZE = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_SIZE)
  .default(20)
  .meta({ param: { id: 'PageSize', description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` } });
const ORDER_DIRECTION = z
  .enum(['asc', 'desc'])
  .default('desc')
  .meta({ param: { id: 'OrderDirection' } });
const CREATED_FROM = DateTime.optional().meta({ param: { id: 'CreatedFrom', description: 'Created at or after this time (inclusive).' } });
const CURSOR = z.string().min(1).max(255);
const STARTING_AFTER = CURSOR.optional().meta({
  param: { id: 'StartingAfter', description: 'Cursor paging: the items after the item with this id, in the requested order (docs/api.md, "Lists").' },
});
const ENDING_BEFORE = CURSOR.optional().meta({
  param: { id: 'EndingBefore', description: 'Cursor paging: the items before the item with this id, in the requested order (docs/api.md, "Lists").' },
});
const CREATED_TO = DateTime.optional().meta({ param: { id: 'CreatedTo', description: 'Created at or before this time (inclusive).' } });

/**
 * Query schema of an L endpoint (DESIGN 4.6): paging by number or by cursor, ordering by
 * `createdAt` or the listed fields, an inclusive creation window, plus the endpoint's own filters.
 */
export function listQuery<TOrder extends string, TFilters extends z.ZodRawShape = Record<never, never>>(
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
      startingAfter: STARTING_AFTER,
      endingBefore: ENDING_BEFORE,
      ...(filters ?? ({} as TFilters)),
    })
    .refine((q) => createdWindowIsOrdered(q as { createdFrom?: Date; createdTo?: Date }), {
      message: 'createdFrom must not be after createdTo.',
      path: ['createdFrom'],
    })
    .refine((q) => !bothCursors(q as PagingInput), {
      message: 'Send startingAfter or endingBefore, not both.',
      path: ['endingBefore'],
    })
    .refine((q) => !pageAndCursor(q as PagingInput), {
      message: 'Page by number (page) or by cursor (startingAfter / endingBefore), not both.',
      path: ['page'],
    });
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.int().min(0).meta({ description: 'The page number; 0 on a page asked for by cursor (it has no number).' }),
    pageSize: z.int(),
    totalCount: z.int(),
    hasMore: z.boolean().meta({ description: 'More items follow in the direction of paging: after the last item, or before the first for `endingBefore`.' }),
  });
}

interface PagingInput {
  page?: number;
  startingAfter?: string;
  endingBefore?: string;
}

const bothCursors = (query: PagingInput) => query.startingAfter !== undefined && query.endingBefore !== undefined;
const pageAndCursor = (query: PagingInput) => query.page !== undefined && (query.startingAfter !== undefined || query.endingBefore !== undefined);

function createdWindowIsOrdered(query: { createdFrom?: Date; createdTo?: Date }): boolean {
  return !query.createdFrom || !query.createdTo || query.createdFrom <= query.createdTo;
}
