import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { idParam } from '../http/schemas';
import { BILLING_RECORD_STATUSES, BillingRecordResponse, CreditNoteResponse } from './schemas';

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

export const listCreditNotesOperation = defineOperation({
  id: 'listCreditNotes',
  method: 'GET',
  path: '/api/CreditNote',
  tag: 'Billing records',
  summary: 'List credit notes',
  description:
    'Every refund that succeeds issues a credit note against the invoice the refunded payment paid, numbered from its own gapless sequence (`ACME-CN-0001`). Emitted as `credit_note.created`.',
  scope: 'payments:read',
  query: listQuery(['createdAt', 'amount'], {
    billingRecordId: z.string().min(1).optional(),
    customerId: z.string().min(1).optional(),
  }),
  response: pageOf(CreditNoteResponse),
});

export const getCreditNoteOperation = defineOperation({
  id: 'getCreditNote',
  method: 'GET',
  path: '/api/CreditNote/{creditNoteId}',
  tag: 'Billing records',
  summary: 'Retrieve a credit note',
  scope: 'payments:read',
  params: idParam('creditNoteId', 'cn'),
  response: CreditNoteResponse,
});
