import { apiRoute } from '@/lib/server/http/api-route';
import { createProductOperation, listProductsOperation } from '@/lib/catalog/api';
import { createProduct, listProducts } from '@/lib/catalog/products';

export const GET = apiRoute(listProductsOperation, ({ db, merchantId, query }) => listProducts(db, merchantId, query));

export const POST = apiRoute(createProductOperation, ({ db, merchantId, body }) => createProduct(db, merchantId, body));
