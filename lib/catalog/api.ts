import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import { CreatePriceBody, CreateProductBody, PriceResponse, ProductResponse, UpdatePriceBody, UpdateProductBody } from './schemas';

const ProductParams = idParam('productId', 'prod');
const PriceParams = idParam('priceId', 'price');

export const listProductsOperation = defineOperation({
  id: 'listProducts',
  method: 'GET',
  path: '/api/Product',
  tag: 'Products',
  summary: 'List products',
  scope: 'products:read',
  query: listQuery(['createdAt', 'name'], { active: BooleanQuery.optional() }),
  response: pageOf(ProductResponse),
});

export const createProductOperation = defineOperation({
  id: 'createProduct',
  method: 'POST',
  path: '/api/Product',
  tag: 'Products',
  summary: 'Create a product',
  description: 'Emits `product.created`.',
  scope: 'products:write',
  body: CreateProductBody,
  response: ProductResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getProductOperation = defineOperation({
  id: 'getProduct',
  method: 'GET',
  path: '/api/Product/{productId}',
  tag: 'Products',
  summary: 'Retrieve a product',
  scope: 'products:read',
  params: ProductParams,
  response: ProductResponse,
});

export const updateProductOperation = defineOperation({
  id: 'updateProduct',
  method: 'PUT',
  path: '/api/Product/{productId}',
  tag: 'Products',
  summary: 'Update a product',
  description: 'Fields left out keep their value.',
  scope: 'products:write',
  params: ProductParams,
  body: UpdateProductBody,
  response: ProductResponse,
});

export const listPricesOperation = defineOperation({
  id: 'listPrices',
  method: 'GET',
  path: '/api/Price',
  tag: 'Prices',
  summary: 'List prices',
  scope: 'prices:read',
  query: listQuery(['createdAt', 'amount'], {
    productId: z.string().min(1).optional(),
    active: BooleanQuery.optional(),
    type: z.enum(['OneTime', 'Recurring']).optional(),
  }),
  response: pageOf(PriceResponse),
});

export const createPriceOperation = defineOperation({
  id: 'createPrice',
  method: 'POST',
  path: '/api/Price',
  tag: 'Prices',
  summary: 'Create a price',
  description: 'OneTime or Recurring. Recurring needs `interval` (day, week, month, year); `intervalCount` defaults to 1. Emits `price.created`.',
  scope: 'prices:write',
  body: CreatePriceBody,
  response: PriceResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getPriceOperation = defineOperation({
  id: 'getPrice',
  method: 'GET',
  path: '/api/Price/{priceId}',
  tag: 'Prices',
  summary: 'Retrieve a price',
  scope: 'prices:read',
  params: PriceParams,
  response: PriceResponse,
});

export const updatePriceOperation = defineOperation({
  id: 'updatePrice',
  method: 'PUT',
  path: '/api/Price/{priceId}',
  tag: 'Prices',
  summary: 'Activate or deactivate a price, or set its tax rates',
  description:
    'Only `active` and `taxRateIds` can change (tax rates apply to charges planned from then on); amounts and currency are fixed once created (create a new price instead).',
  scope: 'prices:write',
  params: PriceParams,
  body: UpdatePriceBody,
  response: PriceResponse,
});
