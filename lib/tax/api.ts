import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import { CreateTaxRateBody, TaxRateResponse, UpdateTaxRateBody } from './schemas';

const TaxRateParams = idParam('taxRateId', 'txr');

export const listTaxRatesOperation = defineOperation({
  id: 'listTaxRates',
  method: 'GET',
  path: '/api/TaxRate',
  tag: 'Tax rates',
  summary: 'List tax rates',
  scope: 'prices:read',
  query: listQuery(['createdAt', 'displayName'], {
    active: BooleanQuery.optional(),
    inclusive: BooleanQuery.optional(),
    country: z.string().trim().toUpperCase().length(2).optional(),
  }),
  response: pageOf(TaxRateResponse),
});

export const createTaxRateOperation = defineOperation({
  id: 'createTaxRate',
  method: 'POST',
  path: '/api/TaxRate',
  tag: 'Tax rates',
  summary: 'Create a tax rate',
  description: 'The percentage is an exact decimal string; it and `inclusive` never change afterwards (archive the rate and create another).',
  scope: 'prices:write',
  body: CreateTaxRateBody,
  response: TaxRateResponse,
  successStatus: 201,
  idempotency: 'optional',
});

export const getTaxRateOperation = defineOperation({
  id: 'getTaxRate',
  method: 'GET',
  path: '/api/TaxRate/{taxRateId}',
  tag: 'Tax rates',
  summary: 'Retrieve a tax rate',
  scope: 'prices:read',
  params: TaxRateParams,
  response: TaxRateResponse,
});

export const updateTaxRateOperation = defineOperation({
  id: 'updateTaxRate',
  method: 'PUT',
  path: '/api/TaxRate/{taxRateId}',
  tag: 'Tax rates',
  summary: 'Update or archive a tax rate',
  description: 'Fields left out keep their value; `active: false` archives it. The percentage and `inclusive` cannot change (400).',
  scope: 'prices:write',
  params: TaxRateParams,
  body: UpdateTaxRateBody,
  response: TaxRateResponse,
});
