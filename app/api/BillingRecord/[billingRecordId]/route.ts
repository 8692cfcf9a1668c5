import { apiRoute } from '@/lib/server/http/api-route';
import { getBillingRecordOperation } from '@/lib/billing/api';
import { getBillingRecord } from '@/lib/billing/invoices';

export const GET = apiRoute(getBillingRecordOperation, ({ db, merchantId, params }) => getBillingRecord(db, merchantId, params.billingRecordId));
