import { apiRoute } from '@/lib/server/http/api-route';
import { listCreditNotesOperation } from '@/lib/billing/api';
import { listCreditNotes } from '@/lib/payments/credit-notes';

export const GET = apiRoute(listCreditNotesOperation, ({ db, merchantId, query }) => listCreditNotes(db, merchantId, query));
