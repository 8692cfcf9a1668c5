import { apiRoute } from '@/lib/server/http/api-route';
import { createPriceOperation, listPricesOperation } from '@/lib/catalog/api';
import { createPrice, listPrices } from '@/lib/catalog/prices';

export const GET = apiRoute(listPricesOperation, ({ db, merchantId, query }) => listPrices(db, merchantId, query));

export const POST = apiRoute(createPriceOperation, ({ db, merchantId, body }) => createPrice(db, merchantId, body));
