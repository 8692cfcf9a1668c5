import { apiRoute } from '@/lib/server/http/api-route';
import { listBillingRecordsOperation } from '@/lib/billing/api';
import { listBillingRecords } from '@/lib/billing/invoices';

export const GET = apiRoute(listBillingRecordsOperation, ({ db, merchantId, query }) => listBillingRecords(db, merchantId, query));
