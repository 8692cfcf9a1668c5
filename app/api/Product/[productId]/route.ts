import { apiRoute } from '@/lib/server/http/api-route';
import { getProductOperation, updateProductOperation } from '@/lib/catalog/api';
import { getProduct, updateProduct } from '@/lib/catalog/products';

export const GET = apiRoute(getProductOperation, ({ db, merchantId, params }) => getProduct(db, merchantId, params.productId));

export const PUT = apiRoute(updateProductOperation, ({ db, merchantId, params, body }) => updateProduct(db, merchantId, params.productId, body));
