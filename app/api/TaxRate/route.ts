import { apiRoute } from '@/lib/server/http/api-route';
import { createTaxRateOperation, listTaxRatesOperation } from '@/lib/tax/api';
import { createTaxRate, listTaxRates } from '@/lib/tax/tax-rates';

export const GET = apiRoute(listTaxRatesOperation, ({ db, merchantId, query }) => listTaxRates(db, merchantId, query));

export const POST = apiRoute(createTaxRateOperation, ({ db, merchantId, body }) => createTaxRate(db, merchantId, body));
