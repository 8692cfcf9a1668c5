import { apiRoute } from '@/lib/server/http/api-route';
import { getPriceOperation, updatePriceOperation } from '@/lib/catalog/api';
import { getPrice, updatePrice } from '@/lib/catalog/prices';

export const GET = apiRoute(getPriceOperation, ({ db, merchantId, params }) => getPrice(db, merchantId, params.priceId));

export const PUT = apiRoute(updatePriceOperation, ({ db, merchantId, params, body }) => updatePrice(db, merchantId, params.priceId, body));
