import { sessionRoute } from '@/lib/server/http/session-route';
import { reinstateMerchantOperation } from '@/lib/auth/api';
import { reinstateMerchant } from '@/lib/operator/suspension';

export const POST = sessionRoute(reinstateMerchantOperation, ({ db, params, body }) => reinstateMerchant(db, params.merchantId, body));
