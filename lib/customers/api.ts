import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { Email, idParam } from '../http/schemas';
import { CUSTOMER_STATUSES, CreateCustomerBody, CustomValueBody, CustomValueResponse, CustomerResponse, UpdateCustomerBody } from './schemas';

const CustomerParams = idParam('customerId', 'cus');

export const listCustomersOperation = defineOperation({
  id: 'listCustomers',
  method: 'GET',
  path: '/api/Customer',
  tag: 'Customers',
  summary: 'List customers',
  scope: 'customers:read',
  query: listQuery(['createdAt', 'name', 'email'], {
    email: Email.optional(),
    externalId: z.string().min(1).optional(),
    status: z.enum(CUSTOMER_STATUSES).optional(),
  }),
  response: pageOf(CustomerResponse),
});

export const createCustomerOperation = defineOperation({
  id: 'createCustomer',
  method: 'POST',
  path: '/api/Customer',
  tag: 'Customers',
  summary: 'Create a customer',
  description: 'Emits `customer.created`. `externalId` must be unique among your customers (409 otherwise).',
  scope: 'customers:write',
  body: CreateCustomerBody,
  response: CustomerResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 409: 'CONFLICT: another customer has this `externalId`.' },
});

export const getCustomerOperation = defineOperation({
  id: 'getCustomer',
  method: 'GET',
  path: '/api/Customer/{customerId}',
  tag: 'Customers',
  summary: 'Retrieve a customer',
  scope: 'customers:read',
  params: CustomerParams,
  response: CustomerResponse,
});

export const updateCustomerOperation = defineOperation({
  id: 'updateCustomer',
  method: 'PUT',
  path: '/api/Customer/{customerId}',
  tag: 'Customers',
  summary: 'Update a customer',
  description: 'Fields left out keep their value; `null` clears email, name or externalId.',
  scope: 'customers:write',
  params: CustomerParams,
  body: UpdateCustomerBody,
  response: CustomerResponse,
  answers: { 409: 'CONFLICT: another customer has this `externalId`.' },
});

export const listCustomValuesOperation = defineOperation({
  id: 'listCustomValues',
  method: 'GET',
  path: '/api/Customer/{customerId}/CustomValue',
  tag: 'Customers',
  summary: "List a customer's custom values",
  scope: 'customers:read',
  params: CustomerParams,
  query: listQuery(['createdAt', 'key']),
  response: pageOf(CustomValueResponse),
});

export const createCustomValueOperation = defineOperation({
  id: 'createCustomValue',
  method: 'POST',
  path: '/api/Customer/{customerId}/CustomValue',
  tag: 'Customers',
  summary: 'Add a custom value',
  description: 'Body `{ "key", "value" }`. A key that already exists answers 409; at most 100 values per customer.',
  scope: 'customers:write',
  params: CustomerParams,
  body: CustomValueBody,
  response: CustomValueResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: { 409: 'CONFLICT: the key exists (use PUT), or INVALID_STATE: the customer holds the most custom values allowed.' },
});

export const updateCustomValueOperation = defineOperation({
  id: 'updateCustomValue',
  method: 'PUT',
  path: '/api/Customer/{customerId}/CustomValue',
  tag: 'Customers',
  summary: 'Change a custom value',
  description: 'Body `{ "key", "value" }`. A key that does not exist answers 404.',
  scope: 'customers:write',
  params: CustomerParams,
  body: CustomValueBody,
  response: CustomValueResponse,
});
