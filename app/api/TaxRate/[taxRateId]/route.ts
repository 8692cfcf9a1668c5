import { apiRoute } from '@/lib/server/http/api-route';
import { getTaxRateOperation, updateTaxRateOperation } from '@/lib/tax/api';
import { getTaxRate, updateTaxRate } from '@/lib/tax/tax-rates';

export const GET = apiRoute(getTaxRateOperation, ({ db, merchantId, params }) => getTaxRate(db, merchantId, params.taxRateId));

export const PUT = apiRoute(updateTaxRateOperation, ({ db, merchantId, params, body }) => updateTaxRate(db, merchantId, params.taxRateId, body));
