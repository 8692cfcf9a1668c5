import { apiRoute } from '@/lib/server/http/api-route';
import { getCreditBalanceOperation } from '@/lib/usage/api';
import { getCreditBalance } from '@/lib/usage/credits';

export const GET = apiRoute(getCreditBalanceOperation, ({ db, merchantId, params }) => getCreditBalance(db, merchantId, params.customerId));
