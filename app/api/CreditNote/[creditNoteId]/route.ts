import { apiRoute } from '@/lib/server/http/api-route';
import { getCreditNoteOperation } from '@/lib/billing/api';
import { getCreditNote } from '@/lib/payments/credit-notes';

export const GET = apiRoute(getCreditNoteOperation, ({ db, merchantId, params }) => getCreditNote(db, merchantId, params.creditNoteId));
