import { apiRoute } from '@/lib/http/api-route';
import { getPriceOperation, updatePriceOperation } from '@/lib/catalog/api';
import { getPrice, setPriceActive } from '@/lib/catalog/prices';

export const GET = apiRoute(getPriceOperation, ({ db, merchantId, params }) => getPrice(db, merchantId, params.priceId));

export const PUT = apiRoute(updatePriceOperation, ({ db, merchantId, params, body }) => setPriceActive(db, merchantId, params.priceId, body.active));
