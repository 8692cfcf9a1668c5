import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import {
  CreateCreditGrantBody,
  CreditBalanceResponse,
  CreditGrantResponse,
  CustomerEntitlementsResponse,
  ListUsageFilters,
  MAX_BATCH_RECORDS,
  RecordUsageBatchBody,
  RecordUsageBatchResponse,
  RecordUsageBody,
  RecordUsageResponse,
  UsageRecordResponse,
  UsageSummaryQuery,
  UsageSummaryResponse,
} from './schemas';

const CustomerParams = idParam('customerId', 'cus');

export const recordUsageOperation = defineOperation({
  id: 'recordUsage',
  method: 'POST',
  path: '/api/Usage',
  tag: 'Usage',
  summary: 'Record usage',
  description:
    'Records a fact of usage (never refused: usage beyond the limit and credits is still counted) and answers 201 with the record and the entitlement after it. ' +
    '`id` is your deduplication key: the same `id` and body again answers 200 with the original record and counts nothing twice; the same `id` with another body → 409. ' +
    'Emits `usage.recorded`, and `entitlement.exhausted`, `credit.low`, `credit.exhausted` when it crosses those lines (once per period and threshold).',
  scope: 'entitlements:write',
  body: RecordUsageBody,
  response: RecordUsageResponse,
  successStatus: 201,
  idempotency: 'optional',
  answers: {
    200: { description: 'The same `id` and body again: the original record, counted once.', schema: RecordUsageResponse },
    409: 'CONFLICT: the `id` was already recorded with another body.',
  },
});

export const recordUsageBatchOperation = defineOperation({
  id: 'recordUsageBatch',
  method: 'POST',
  path: '/api/Usage/Batch',
  tag: 'Usage',
  summary: 'Record up to 1,000 usage records',
  description: `Body \`{ "records": [...] }\` with 1 to ${MAX_BATCH_RECORDS} records, each with its own \`id\`. Answers 200 with one answer per record, in order: 201 recorded, 200 already recorded with the same body, 409 already recorded with another body, 404 unknown customer.`,
  scope: 'entitlements:write',
  body: RecordUsageBatchBody,
  response: RecordUsageBatchResponse,
});

export const reverseUsageOperation = defineOperation({
  id: 'reverseUsage',
  method: 'POST',
  path: '/api/Usage/{usageId}/Reverse',
  tag: 'Usage',
  summary: 'Reverse a usage record',
  description: 'Gives back the units and the credits the record took. Emits `usage.reversed`. A record already reversed → 409.',
  scope: 'entitlements:write',
  params: idParam('usageId', 'usg'),
  response: UsageRecordResponse,
  idempotency: 'required',
  answers: { 409: 'INVALID_STATE: the record was already reversed.' },
});

export const listUsageOperation = defineOperation({
  id: 'listUsage',
  method: 'GET',
  path: '/api/Usage',
  tag: 'Usage',
  summary: 'List usage records',
  description: '`from` (inclusive) and `to` (exclusive) filter on the usage `timestamp`; `createdFrom`/`createdTo` on when it was recorded.',
  scope: 'entitlements:read',
  query: listQuery(['createdAt', 'timestamp'], ListUsageFilters),
  response: pageOf(UsageRecordResponse),
});

export const summarizeUsageOperation = defineOperation({
  id: 'summarizeUsage',
  method: 'GET',
  path: '/api/Usage/Summary',
  tag: 'Usage',
  summary: 'Usage totals per day or per period',
  description: 'Totals of the records that are not reversed, per feature and UTC day (`groupBy=day`) or metering period (`groupBy=period`).',
  scope: 'entitlements:read',
  query: UsageSummaryQuery,
  response: UsageSummaryResponse,
});

export const getCustomerEntitlementsOperation = defineOperation({
  id: 'getCustomerEntitlements',
  method: 'GET',
  path: '/api/Customer/{customerId}/Entitlement',
  tag: 'Usage',
  summary: "A customer's entitlements",
  description:
    'Every feature with `allowed`, `limit`, `used`, `remaining`, the credit balance, the current period and where it comes from (override, subscription, purchase, or none: credits alone).',
  scope: 'entitlements:read',
  params: CustomerParams,
  response: CustomerEntitlementsResponse,
});

export const getCreditBalanceOperation = defineOperation({
  id: 'getCreditBalance',
  method: 'GET',
  path: '/api/Customer/{customerId}/CreditBalance',
  tag: 'Usage',
  summary: "A customer's credit balances",
  description: 'Per feature: the balance and the live grants it is made of, the one that expires first first.',
  scope: 'entitlements:read',
  params: CustomerParams,
  response: CreditBalanceResponse,
});

export const createCreditGrantOperation = defineOperation({
  id: 'createCreditGrant',
  method: 'POST',
  path: '/api/Customer/{customerId}/CreditGrant',
  tag: 'Usage',
  summary: 'Grant credits',
  description: 'Adds credits to one feature of the customer, with an optional expiry. Emits `credit.granted`.',
  scope: 'entitlements:write',
  params: CustomerParams,
  body: CreateCreditGrantBody,
  response: CreditGrantResponse,
  successStatus: 201,
  idempotency: 'required',
});
