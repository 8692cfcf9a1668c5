import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import { BILLING_RECORD_STATUSES, BillingRecordResponse } from './schemas';

export const listBillingRecordsOperation = defineOperation({
  id: 'listBillingRecords',
  method: 'GET',
  path: '/api/BillingRecord',
  tag: 'Billing records',
  summary: 'List billing records (invoices)',
  description:
    'Every checkout payment, subscription period and proration writes one billing record: its line items, totals in minor units, status and payment attempts, with links to its hosted invoice page and PDF.',
  scope: 'payments:read',
  query: listQuery(['createdAt', 'amount'], {
    customerId: z.string().min(1).optional(),
    subscriptionId: z.string().min(1).optional(),
    status: z.enum(BILLING_RECORD_STATUSES).optional(),
  }),
  response: pageOf(BillingRecordResponse),
});

export const getBillingRecordOperation = defineOperation({
  id: 'getBillingRecord',
  method: 'GET',
  path: '/api/BillingRecord/{billingRecordId}',
  tag: 'Billing records',
  summary: 'Retrieve a billing record (invoice)',
  scope: 'payments:read',
  params: idParam('billingRecordId', 'br'),
  response: BillingRecordResponse,
});
